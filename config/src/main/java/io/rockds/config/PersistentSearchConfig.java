package io.rockds.config;

import io.rockds.config.model.PropertyReader;

/**
 * Bounds on persistent searches (draft-ietf-ldapext-psearch), from {@code cn=config}. Each one
 * holds server state (a registration and a queue of changes) for as long as the client stays, so
 * every count is bounded, anonymous clients separately.
 *
 * @param maxPsearches persistent searches open at once on the server (0 = none allowed)
 * @param maxPerConnection persistent searches open at once on one connection
 * @param maxAnonymous persistent searches of anonymous clients open at once on the server
 * @param queueSize changes one persistent search may have waiting for its client; one more ends it
 *     with adminLimitExceeded
 */
public record PersistentSearchConfig(
    int maxPsearches, int maxPerConnection, int maxAnonymous, int queueSize) {

  public static final PersistentSearchConfig DEFAULTS =
      new PersistentSearchConfig(1000, 8, 16, 1000);

  static PersistentSearchConfig from(PropertyReader r) {
    return new PersistentSearchConfig(
        r.integer("max-psearches").intValue(),
        r.integer("max-psearches-per-connection").intValue(),
        r.integer("max-anonymous-psearches").intValue(),
        r.integer("psearch-queue-size").intValue());
  }
}
