/**
 * {@code bin/dsconfig}: OpenDJ's configuration tool for RockDS. Its subcommands ({@code list-},
 * {@code get-…-prop}, {@code set-…-prop}, {@code create-}, {@code delete-} for each kind of object)
 * and their help are generated from the configuration model, as OpenDJ generates its own from
 * managed-object definitions, so operators' scripts run unchanged. It edits {@code cn=config} over
 * LDAP(S) with the UnboundID SDK, or with {@code --offline} the {@code config.ldif} of a stopped
 * server, through the same validation the server applies.
 */
package io.rockds.tools.dsconfig;
