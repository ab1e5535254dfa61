package io.rockds.server;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.storage.search.SearchCandidates;
import java.util.ArrayList;
import java.util.List;

/**
 * User entries: finding those SASL PLAIN's {@code u:} authentication IDs name (by {@code uid}
 * equality under every backend).
 */
public final class UserEntries {
  /** Bound on entries examined when uid is not indexed, so a lookup cannot scan a huge backend. */
  private static final int UNINDEXED_SCAN_LIMIT = 10_000;

  private final ServerContext context;

  public UserEntries(ServerContext context) {
    this.context = context;
  }

  /**
   * The entries whose uid equals {@code uid}, over all backends (at most two: more is ambiguous
   * anyway).
   */
  public List<Entry> byUid(String uid) throws LDAPException {
    Filter filter = Filter.createEqualityFilter("uid", uid);
    List<Entry> found = new ArrayList<>();
    for (DN base : context.backends().baseDns()) {
      SearchCandidates.visitMatches(
          context.backends().containerFor(base),
          context.schema(),
          filter,
          UNINDEXED_SCAN_LIMIT,
          entry -> found.add(entry) && found.size() < 2);
      if (found.size() > 1) {
        break;
      }
    }
    return found;
  }
}
