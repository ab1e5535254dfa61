package io.rockds.server;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.storage.EntryContainer;

/** Resolves the entry container a write goes to, refusing DNs that no backend holds. */
final class WriteTarget {
  private WriteTarget() {}

  static EntryContainer container(ServerContext context, DN dn) throws LDAPException {
    EntryContainer container = context.backends().containerFor(dn);
    if (container == null) {
      throw new LDAPException(ResultCode.NO_SUCH_OBJECT, "No backend holds the entry " + dn
          + "; the server holds " + context.backends().baseDns());
    }
    return container;
  }
}
