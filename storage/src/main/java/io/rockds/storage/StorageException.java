package io.rockds.storage;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;

/**
 * A storage outcome other than success, typed so that callers decide on the kind and never look at
 * RocksDB's errors: it is already the LDAP result the client should get.
 */
public final class StorageException extends LDAPException {
  private static final long serialVersionUID = 1L;

  /** What went wrong, and the LDAP result each kind becomes. */
  public enum Kind {
    /** The entry (or its parent) does not exist: noSuchObject (32). */
    NOT_FOUND(ResultCode.NO_SUCH_OBJECT),
    /** The entry exists already: entryAlreadyExists (68). */
    ALREADY_EXISTS(ResultCode.ENTRY_ALREADY_EXISTS),
    /**
     * The database volume is full: unwillingToPerform (53); reads go on, writes resume with space.
     */
    DISK_FULL(ResultCode.UNWILLING_TO_PERFORM),
    /** RocksDB found corrupt data: unavailable (52) until repaired. */
    CORRUPT(ResultCode.UNAVAILABLE),
    /** The backend is closed or closing (shutdown): unavailable (52). */
    CLOSED(ResultCode.UNAVAILABLE),
    /** Any other I/O failure of the database: unavailable (52). */
    IO_ERROR(ResultCode.UNAVAILABLE),
    /**
     * A memory-only read ({@link ReadFrom#MEMORY}) needed a record from disk: busy (51) if it ever
     * reached a client; its reader retries where it may wait.
     */
    NOT_IN_MEMORY(ResultCode.BUSY);

    private final ResultCode resultCode;

    Kind(ResultCode resultCode) {
      this.resultCode = resultCode;
    }

    public ResultCode resultCode() {
      return resultCode;
    }

    /**
     * Whether the backend's health suffers (a missing or duplicate entry is the client's business).
     */
    public boolean degradesHealth() {
      return this == DISK_FULL || this == CORRUPT || this == IO_ERROR;
    }
  }

  private final Kind kind;

  StorageException(Kind kind, String message, String matchedDn, Throwable cause) {
    super(kind.resultCode(), message, matchedDn, null, cause);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }

  static StorageException notFound(String message, DN matched) {
    return new StorageException(
        Kind.NOT_FOUND, message, matched == null ? null : matched.toString(), null);
  }

  static StorageException alreadyExists(DN dn) {
    return new StorageException(
        Kind.ALREADY_EXISTS, "The entry " + dn + " already exists", null, null);
  }
}
