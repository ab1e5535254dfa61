package io.rockds.server.backend;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.SearchBase;

/**
 * Where a backend's search delivers: entries in scope, or the indexed entry container to search.
 */
public interface SearchResults {
  /**
   * The search's filter, which a backend without indexes may use to narrow what it reads (entries
   * outside it are filtered out anyway).
   */
  Filter filter();

  /** Returns the entry if it matches the filter and the client may read it; false to stop. */
  boolean inScope(Entry entry) throws LDAPException;

  /**
   * Searches an indexed container (candidates from the indexes, paging, sorting) below {@code
   * base}, which exists and was read once for the whole search.
   */
  void indexed(EntryContainer container, SearchBase base) throws LDAPException;
}
