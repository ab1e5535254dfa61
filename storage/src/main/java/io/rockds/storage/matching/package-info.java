/**
 * The one matching engine of the server: {@link io.rockds.storage.matching.FilterEvaluator} decides
 * filters (RFC 4511 section 4.5.1.7, three-valued) and compares for every caller (search, compare,
 * the assertion control, cn=config, cn=monitor, groups, ACI target filters), obtained with {@code
 * FilterEvaluator.forSchema(schema)} or the server schema's shared instance. {@link
 * io.rockds.storage.matching.MatchingRules} picks each attribute type's rules, one implementation
 * per rule, shared with the index keys so that phase 1 and phase 2 of a search agree; the rules the
 * UnboundID SDK gets wrong for RFC 4517 are implemented here.
 */
package io.rockds.storage.matching;
