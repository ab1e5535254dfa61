package io.rockds.storage;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchScope;
import org.rocksdb.RocksDBException;

/**
 * The base entry of a search ({@link EntryContainer#searchBase}), handed to every later step
 * (candidates, scope walks): its ID is read from {@code dn2id} at most once, and only when a step
 * needs it. A subtree search of its container's own base DN with indexed candidates never does,
 * since every entry of the container is in its scope: it reads the base only if it finds nothing,
 * to tell an empty result from noSuchObject (a third of the point reads of a {@code (uid=…)}
 * search). Used by the thread of one search.
 */
public final class SearchBase {
  private static final long UNREAD = Long.MIN_VALUE;

  private final DN dn;
  private final SearchScope scope;
  private final Dn2Id dn2id;
  private long id = UNREAD;

  SearchBase(DN dn, SearchScope scope, Dn2Id dn2id) {
    this.dn = dn;
    this.scope = scope;
    this.dn2id = dn2id;
  }

  /** The base DN. */
  public DN dn() {
    return dn;
  }

  /** The scope below it. */
  public SearchScope scope() {
    return scope;
  }

  /** The base entry's ID, -1 when it does not exist. */
  public long id() throws LDAPException {
    if (id == UNREAD) {
      try {
        id = dn2id.get(dn);
      } catch (RocksDBException e) {
        throw StorageErrors.wrap(e);
      }
    }
    return id;
  }

  public boolean exists() throws LDAPException {
    return id() >= 0;
  }
}
