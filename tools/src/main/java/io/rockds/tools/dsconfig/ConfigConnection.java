package io.rockds.tools.dsconfig;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import java.util.List;

/**
 * Where dsconfig reads and writes configuration entries: a running server over LDAP, or a stopped
 * server's {@code config.ldif}. Writes return the server's notice (restart or rebuild needed) or
 * null.
 */
interface ConfigConnection extends AutoCloseable {
  /** The entry, or null when it does not exist. */
  Entry get(DN dn) throws LDAPException;

  /** The entries directly below {@code parent}; empty when it does not exist. */
  List<Entry> children(DN parent) throws LDAPException;

  String add(Entry entry) throws LDAPException;

  String modify(DN dn, List<Modification> modifications) throws LDAPException;

  String delete(DN dn) throws LDAPException;

  @Override
  void close();
}
