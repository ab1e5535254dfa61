package io.rockds.server.backend;

import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.server.WriteOutcome;
import io.rockds.server.WriteRecord;

/**
 * A backend holding settings every server of a replication group shares ({@code cn=schema}, the
 * shared part of {@code cn=config}): the server that receives a change of them prepares a {@link
 * WriteRecord#settings settings record}, and every server applies it here, in log order, through
 * the same {@link io.rockds.server.WriteApplier} as the writes of entries.
 */
public interface SharedSettingsBackend extends DirectoryBackend {
  /**
   * Applies a prepared settings change; deterministic given the same settings. A refusal is thrown;
   * a failure of this server alone (its disk) is {@code other} (80).
   */
  WriteOutcome applySettings(WriteRecord record) throws LDAPException;

  /**
   * Checks a prepared settings change against the current settings, changing nothing: throws what
   * {@link #applySettings} would refuse now. The leader checks a change so before it appends it to
   * the replication log; applying still checks, as later records may have changed the settings.
   */
  void checkSettings(WriteRecord record) throws LDAPException;
}
