package io.rockds.storage;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.SearchScope;

/**
 * The base entry of a search, read from {@code dn2id} once ({@link EntryContainer#searchBase}) and
 * handed to every later step (candidates, scope walks) so that none reads it again.
 *
 * @param dn the base DN
 * @param id the base entry's ID, -1 when it does not exist
 * @param scope the scope below it
 */
public record SearchBase(DN dn, long id, SearchScope scope) {
  public boolean exists() {
    return id >= 0;
  }
}
