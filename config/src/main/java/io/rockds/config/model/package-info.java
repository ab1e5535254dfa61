/**
 * The configuration model: what each kind of configuration object ({@code backend}, {@code
 * backend-index}, {@code log-publisher}, ...) is called, where its entries live under {@code
 * cn=config}, and every property it has, with its syntax, default, description and whether a change
 * applies live, at the next restart or after an index rebuild.
 *
 * <p>The model is data, read by three consumers: {@link io.rockds.config.model.EntryValidator}
 * (start-up, {@code cn=config} writes and {@code dsconfig --offline} all refuse the same bad values
 * with the same message naming the property), the typed records of {@code io.rockds.config}, and
 * {@code dsconfig}, whose subcommands and help are generated from it as OpenDJ generates its own
 * from managed-object XML.
 */
package io.rockds.config.model;
