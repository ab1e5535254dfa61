package io.rockds.server.security.aci;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;

/**
 * The directory reads bind rules need: group membership ({@code groupdn}, {@code roledn}) and
 * entries ({@code userattr}).
 */
public interface DirectoryReader {
  boolean isMember(DN user, DN group);

  /** The entry, or null when it does not exist. */
  Entry get(DN dn) throws LDAPException;
}
