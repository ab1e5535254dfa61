package io.rockds.storage;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchScope;
import org.rocksdb.RocksDBException;

/** The entries in a search scope, walked in DN order through {@code dn2id}. */
final class ScopeScans {
  private final Dn2Id dn2id;

  ScopeScans(Dn2Id dn2id) {
    this.dn2id = dn2id;
  }

  /**
   * The IDs in scope of {@code base}, in DN order, or an undefined set when there are more than
   * {@code maxIds} (0 = no bound). An absent base gives the empty set.
   */
  IdSet scopeIds(DN base, SearchScope scope, int maxIds) throws LDAPException {
    return scopeIds(resolve(base, scope), maxIds);
  }

  /** {@link #scopeIds(DN, SearchScope, int)} of a base already read. */
  IdSet scopeIds(SearchBase base, int maxIds) throws LDAPException {
    if (!base.exists()) {
      return IdSet.empty();
    }
    SearchScope scope = base.scope();
    IdSet.Builder ids = new IdSet.Builder();
    if (scope == SearchScope.BASE || scope == SearchScope.SUB) {
      ids.add(base.id());
    }
    if (scope == SearchScope.BASE) {
      return ids.build();
    }
    boolean[] overflow = {false};
    try {
      dn2id.visitDescendants(
          base.dn(),
          scope == SearchScope.ONE,
          (key, id) -> {
            ids.add(id);
            if (maxIds > 0 && ids.size() > maxIds) {
              overflow[0] = true;
              return false;
            }
            return true;
          });
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
    return overflow[0] ? IdSet.undefined(IdSet.Undefined.NOT_INDEXED) : ids.build();
  }

  /** Visits every ID in scope in DN order, without collecting them (unindexed searches). */
  void visitScope(DN base, SearchScope scope, Dn2Id.IdVisitor visitor) throws LDAPException {
    visitScope(resolve(base, scope), visitor);
  }

  /** {@link #visitScope(DN, SearchScope, Dn2Id.IdVisitor)} of a base already read. */
  void visitScope(SearchBase base, Dn2Id.IdVisitor visitor) throws LDAPException {
    if (!base.exists()) {
      return;
    }
    SearchScope scope = base.scope();
    try {
      if ((scope == SearchScope.BASE || scope == SearchScope.SUB)
          && !visitor.visit(null, base.id())) {
        return;
      }
      if (scope != SearchScope.BASE) {
        dn2id.visitDescendants(base.dn(), scope == SearchScope.ONE, visitor);
      }
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  /**
   * Resumes a {@link #visitScope} walk at the dn2id key a visitor was given (inclusive), skipping
   * the base entry: how a paged unindexed search continues where its previous page stopped.
   */
  void visitScopeFrom(SearchBase base, byte[] startAt, Dn2Id.IdVisitor visitor)
      throws LDAPException {
    if (base.scope() == SearchScope.BASE) {
      return;
    }
    try {
      dn2id.visitDescendants(base.dn(), base.scope() == SearchScope.ONE, startAt, visitor);
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  /** The base entry of a search, read once. */
  SearchBase resolve(DN base, SearchScope scope) {
    return new SearchBase(base, scope, dn2id);
  }
}
