/**
 * {@code cn=config} served over LDAP. {@link io.rockds.server.config.ConfigBackend} answers
 * searches (privilege {@code config-read}) and writes (privilege {@code config-write}) on the
 * configuration entries; a write is tried on a copy of the configuration, validated as a whole
 * against the model (the message names the property), saved atomically through {@link
 * io.rockds.config.ConfigStore#save}, and only then handed to {@link
 * io.rockds.server.config.LiveConfiguration}, which applies what can change live (limits, global
 * ACIs, password policies and storage schemes, root DNs, log publishers, index settings). The
 * success response tells the operator what needs a restart or an index rebuild. In a replication
 * group a write of the configuration every server shares ({@link io.rockds.config.SharedConfig}) is
 * a settings record of the replication log, which every server applies this way.
 */
package io.rockds.server.config;
