package io.rockds.server.security.policy;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import java.util.List;

/**
 * Where the password policy's own writes go: the new password Password Modify sets, and the state a
 * bind keeps (failure times, lockout). The server sends both down its write path as prepared
 * modifies, so every server of a replication group applies them and cn=changelog records them.
 */
public interface PolicyWrites {
  /**
   * A modify of {@code dn} by {@code modifier}, stamped with modifiersName and modifyTimestamp;
   * refused with the result its application answered.
   */
  void modify(DN dn, List<Modification> modifications, DN modifier) throws LDAPException;

  /**
   * Password policy state of {@code dn}, which no one modified: applied without stamps and
   * permissively (a value already gone or already there is fine, as the modifications were computed
   * from the state this server read, which another server's write may have changed since).
   */
  void state(DN dn, List<Modification> modifications) throws LDAPException;
}
