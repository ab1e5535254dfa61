package io.rockds.tools.dsconfig;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchScope;
import java.util.ArrayList;
import java.util.List;

/** {@code cn=config} of a running server, over an authenticated LDAP connection. */
final class LdapConfigConnection implements ConfigConnection {
  private final LDAPConnection connection;

  LdapConfigConnection(LDAPConnection connection) {
    this.connection = connection;
  }

  @Override
  public Entry get(DN dn) throws LDAPException {
    return connection.getEntry(dn.toString(), "*");
  }

  @Override
  public List<Entry> children(DN parent) throws LDAPException {
    try {
      SearchResult result =
          connection.search(parent.toString(), SearchScope.ONE, "(objectClass=*)", "*");
      return new ArrayList<>(result.getSearchEntries());
    } catch (LDAPException e) {
      if (e.getResultCode() == ResultCode.NO_SUCH_OBJECT) {
        return List.of();
      }
      throw e;
    }
  }

  @Override
  public String add(Entry entry) throws LDAPException {
    return notice(connection.add(entry));
  }

  @Override
  public String modify(DN dn, List<Modification> modifications) throws LDAPException {
    return notice(connection.modify(dn.toString(), modifications));
  }

  @Override
  public String delete(DN dn) throws LDAPException {
    return notice(connection.delete(dn.toString()));
  }

  private static String notice(LDAPResult result) {
    return result.getDiagnosticMessage();
  }

  @Override
  public void close() {
    connection.close();
  }
}
