package io.rockds.storage;

import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/** The one seam where RocksDB failures become LDAP results. */
final class StorageErrors {
  private StorageErrors() {}

  static LDAPException wrap(RocksDBException e) {
    Status status = e.getStatus();
    String message = e.getMessage();
    if (status != null && status.getCode() == Status.Code.IOError && message != null
        && message.toLowerCase(java.util.Locale.ROOT).contains("no space")) {
      return new LDAPException(ResultCode.UNAVAILABLE, "the database volume is full: " + message, e);
    }
    return new LDAPException(ResultCode.OTHER, "storage error: " + message, e);
  }
}
