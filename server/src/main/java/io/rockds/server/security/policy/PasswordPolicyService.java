package io.rockds.server.security.policy;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import io.rockds.server.ClientConnection;
import io.rockds.server.Identity;
import io.rockds.server.security.AccessControl;
import io.rockds.server.security.EntryLookup;
import io.rockds.server.security.RootUsers;
import java.time.Clock;
import java.util.List;

/**
 * What operations ask of the password policy: password binds, password changes by modify, and the
 * Password Modify extended operation.
 */
public final class PasswordPolicyService {
  /** The Password Policy request/response control (draft-behera), supported on bind. */
  public static final String CONTROL_OID = AuthenticationGate.CONTROL_OID;

  /** The Password Modify extended operation (RFC 3062). */
  public static final String PASSWORD_MODIFY_OID = PasswordModifyOperation.OID;

  private final AuthenticationGate authentication;
  private final PasswordChanges changes;
  private final PasswordModifyOperation passwordModify;

  public PasswordPolicyService(
      PasswordPolicies policies,
      EntryLookup entries,
      RootUsers rootUsers,
      ResetRestrictions restrictions,
      AccessControl access,
      PolicyWrites writes,
      Clock clock) {
    this.authentication =
        new AuthenticationGate(policies, entries, rootUsers, restrictions, writes, clock);
    this.changes = new PasswordChanges(policies, entries, restrictions, clock);
    this.passwordModify =
        new PasswordModifyOperation(authentication, policies, changes, entries, access, writes);
  }

  /** The gate every bind, SASL mechanism and old-password check authenticates through. */
  public AuthenticationGate authentication() {
    return authentication;
  }

  /**
   * For a modify: checks new userPassword values and returns the policy state to write with them.
   */
  public List<Modification> stateChanges(
      ClientConnection client, DN dn, List<Modification> requested) throws LDAPException {
    return changes.stateChanges(client, dn, requested);
  }

  /** For an add: the new entry's passwords must pass the policy that will govern it. */
  public void checkNewEntry(Identity identity, Entry entry) throws LDAPException {
    changes.checkNewEntry(identity, entry);
  }

  /** Runs a Password Modify extended request and sends its response. */
  public void passwordModify(ClientConnection client, LDAPMessage request) throws LDAPException {
    passwordModify.run(client, request);
  }
}
