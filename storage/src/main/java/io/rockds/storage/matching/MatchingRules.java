package io.rockds.storage.matching;

import com.unboundid.ldap.matchingrules.DistinguishedNameMatchingRule;
import com.unboundid.ldap.matchingrules.MatchingRule;
import com.unboundid.ldap.sdk.schema.AttributeTypeDefinition;
import com.unboundid.ldap.sdk.schema.Schema;
import java.util.Locale;

/**
 * The matching rules of an attribute type, one implementation per rule, shared by the index keys
 * ({@code AttributeIndex}) and the filter evaluation ({@link FilterEvaluator}) so that a key read
 * in phase 1 and a value tested in phase 2 are normalized alike.
 *
 * <p>UnboundID's implementations, except where they depart from RFC 4517: telephoneNumberMatch (the
 * SDK also drops parentheses, dots and more; the RFC only spaces and hyphens) and uniqueMemberMatch
 * (the SDK reads the optional {@code #'0101'B} as part of the DN).
 *
 * <p>Two flavours. The {@code strict} lookups follow the schema: a type without an ORDERING (or
 * SUBSTR, or EQUALITY) rule has none, and a filter needing it is Undefined (RFC 4511 section
 * 4.5.1.7). The {@code forIndex} lookups fall back as the SDK does, for index naming and for
 * comparing values of types without an equality rule. Types the schema does not know get the
 * case-ignore defaults in both, as OpenDJ does with placeholder types.
 */
public final class MatchingRules {
  private MatchingRules() {}

  /** The kind of rule a filter component needs. */
  public enum Kind {
    EQUALITY,
    ORDERING,
    SUBSTRING
  }

  /** The type's rule of {@code kind}, or null when the schema gives the type none. */
  public static MatchingRule strict(String attribute, Kind kind, Schema schema) {
    AttributeTypeDefinition type = schema.getAttributeType(attribute);
    if (type != null && declared(type, kind, schema) == null) {
      return null;
    }
    return forIndex(attribute, kind, schema);
  }

  /**
   * The type's rule of {@code kind}, falling back on its syntax and then on case-ignore matching.
   */
  public static MatchingRule forIndex(String attribute, Kind kind, Schema schema) {
    AttributeTypeDefinition type = schema.getAttributeType(attribute);
    MatchingRule ours = type == null ? null : byName(declared(type, kind, schema));
    if (ours != null) {
      return ours;
    }
    return switch (kind) {
      case EQUALITY -> MatchingRule.selectEqualityMatchingRule(attribute, schema);
      case ORDERING -> MatchingRule.selectOrderingMatchingRule(attribute, schema);
      case SUBSTRING -> MatchingRule.selectSubstringMatchingRule(attribute, schema);
    };
  }

  /** A rule an extensible filter names, and which kind of rule it is. */
  public record Named(MatchingRule rule, Kind kind) {}

  /**
   * The rule an extensible filter names, applied to values of {@code attribute}; null if unknown.
   */
  public static Named named(String ruleId, String attribute, Schema schema) {
    if (schema.getMatchingRule(ruleId) == null) {
      return null;
    }
    MatchingRule ours = byName(ruleId);
    if (ours != null) {
      return new Named(
          ours,
          is(ruleId, ours.getSubstringMatchingRuleName(), ours.getSubstringMatchingRuleOID())
              ? Kind.SUBSTRING
              : Kind.EQUALITY);
    }
    MatchingRule ordering = MatchingRule.selectOrderingMatchingRule(attribute, ruleId, schema);
    if (is(ruleId, ordering.getOrderingMatchingRuleName(), ordering.getOrderingMatchingRuleOID())) {
      return new Named(ordering, Kind.ORDERING);
    }
    MatchingRule substring = MatchingRule.selectSubstringMatchingRule(attribute, ruleId, schema);
    if (is(
        ruleId,
        substring.getSubstringMatchingRuleName(),
        substring.getSubstringMatchingRuleOID())) {
      return new Named(substring, Kind.SUBSTRING);
    }
    return new Named(
        MatchingRule.selectEqualityMatchingRule(attribute, ruleId, schema), Kind.EQUALITY);
  }

  private static boolean is(String ruleId, String name, String oid) {
    return ruleId.equalsIgnoreCase(name) || ruleId.equals(oid);
  }

  /**
   * True when {@code rule} normalizes {@code value} exactly as distinguishedNameMatch does, so a
   * faster DN normalizer may stand in: the DN rule, and uniqueMemberMatch on a value without the
   * optional {@code #'bits'B} (which cannot end in {@code B} then, an RDN value ending so being
   * read as the identifier).
   */
  public static boolean normalizesAsDn(MatchingRule rule, byte[] value) {
    return rule instanceof DistinguishedNameMatchingRule
        || (rule == UniqueMemberRule.INSTANCE
            && (value.length == 0 || value[value.length - 1] != 'B'));
  }

  private static String declared(AttributeTypeDefinition type, Kind kind, Schema schema) {
    return switch (kind) {
      case EQUALITY -> type.getEqualityMatchingRule(schema);
      case ORDERING -> type.getOrderingMatchingRule(schema);
      case SUBSTRING -> type.getSubstringMatchingRule(schema);
    };
  }

  private static MatchingRule byName(String nameOrOid) {
    if (nameOrOid == null) {
      return null;
    }
    return switch (nameOrOid.toLowerCase(Locale.ROOT)) {
      case "telephonenumbermatch", "2.5.13.20", "telephonenumbersubstringsmatch", "2.5.13.21" ->
          TelephoneNumberRule.INSTANCE;
      case "uniquemembermatch", "2.5.13.23" -> UniqueMemberRule.INSTANCE;
      default -> null;
    };
  }
}
