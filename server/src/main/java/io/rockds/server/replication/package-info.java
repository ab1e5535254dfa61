/**
 * The server's side of replication: prepared writes ({@link io.rockds.server.WriteRecord}) go
 * through the Raft log of the {@code replication} module and every server applies them with the
 * same {@link io.rockds.server.WriteApplier} a single server uses.
 */
package io.rockds.server.replication;
