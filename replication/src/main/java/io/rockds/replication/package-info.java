/**
 * Replication of opaque records through a Raft group (Apache Ratis): every member applies the
 * committed records in log order through a {@link io.rockds.replication.RecordApplier}. Knows
 * nothing of LDAP or of the storage: the server prepares the records and applies them.
 */
package io.rockds.replication;
