package io.rockds.server;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.server.backend.DirectoryBackend;
import io.rockds.server.backend.SharedSettingsBackend;
import io.rockds.server.security.AccessControl;
import io.rockds.storage.Backend;
import io.rockds.storage.LogPosition;
import java.util.function.Supplier;

/**
 * Applies prepared writes to the backend holding their DN: the one step every server runs, at once
 * on a single server and in log order on every member of a replication group. A change of the
 * shared settings goes to {@code cn=schema} or {@code cn=config} ({@link SharedSettingsBackend}),
 * the write of an entry to its RocksDB backend.
 */
public final class WriteApplier {
  private final Supplier<ServerContext> services;

  public WriteApplier(Supplier<ServerContext> services) {
    this.services = services;
  }

  /** Applies {@code record}; a refusal is an outcome, not an exception. */
  public WriteOutcome apply(WriteRecord record) {
    try {
      if (record.settings()) {
        return settingsBackendOf(record.targetDn()).applySettings(record);
      }
      return backendOf(record).apply(record);
    } catch (LDAPException e) {
      return WriteOutcome.refused(e);
    }
  }

  /**
   * Checks a settings change against this server's current settings, changing nothing (the leader,
   * before it appends the change to the replication log): throws the refusal applying it now would
   * answer. The write of an entry is checked as it is applied.
   */
  public void check(WriteRecord record) throws LDAPException {
    if (record.settings()) {
      settingsBackendOf(record.targetDn()).checkSettings(record);
    }
  }

  /**
   * Applies the write of an entry committed at {@code position} of the replication log (a settings
   * change keeps its position apart, see {@link #apply(WriteRecord)}), exactly once: the backend
   * stores the position in the batch that applies it, and skips a record at or before the position
   * it stored (a replay after a restart). Its change in {@code cn=changelog} has the number {@code
   * changeNumber}. A record that may change ACIs drops this server's ACI cache once applied: the
   * server that prepared it checked it against its own cache only.
   */
  public WriteOutcome apply(WriteRecord record, LogPosition position, long changeNumber) {
    try {
      StoredBackend backend = backendOf(record);
      Backend storage = backend.storage();
      if (position.notAfter(storage.appliedPosition())) {
        return WriteOutcome.success(null, null);
      }
      AccessControl access = services.get().access();
      boolean acis = access.mayChangeAcis(record.request(), record.targetDn());
      try {
        return storage.applying(position, changeNumber, () -> backend.apply(record));
      } finally {
        if (acis) {
          access.acisChanged();
        }
      }
    } catch (LDAPException e) {
      return WriteOutcome.refused(e);
    }
  }

  /**
   * Finishes the referential integrity of records whose application a crash interrupted (see {@link
   * IntegrityFollowUp}); call before this server applies any record, so that it happens in log
   * order.
   */
  public void finishInterrupted() throws LDAPException {
    for (Backend storage : services.get().backends().all()) {
      if (!storage.baseDns().isEmpty()) {
        backendOf(storage.baseDns().get(0)).finishFollowUp();
      }
    }
  }

  private StoredBackend backendOf(WriteRecord record) throws LDAPException {
    return backendOf(record.targetDn());
  }

  private SharedSettingsBackend settingsBackendOf(DN dn) throws LDAPException {
    if (services.get().router().route(dn) instanceof SharedSettingsBackend settings) {
      return settings;
    }
    throw DirectoryBackend.notHeld(dn);
  }

  private StoredBackend backendOf(DN dn) throws LDAPException {
    DirectoryBackend backend = services.get().router().route(dn);
    if (backend instanceof StoredBackend stored) {
      return stored;
    }
    throw DirectoryBackend.notHeld(dn);
  }
}
