package io.rockds.server.security.policy;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.asn1.ASN1Sequence;
import com.unboundid.ldap.protocol.ExtendedRequestProtocolOp;
import com.unboundid.ldap.protocol.ExtendedResponseProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.ExtendedRequest;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedRequest;
import io.rockds.server.ClientConnection;
import io.rockds.server.Identity;
import io.rockds.server.security.AccessControl;
import io.rockds.server.security.EntryLookup;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;

/**
 * The Password Modify extended operation (RFC 3062): a user changes their own password (giving the
 * old one, which must be right), or an administrator with the {@code password-reset} privilege and
 * the write right on {@code userPassword} resets someone else's. Without a new password the server
 * generates one and returns it.
 *
 * <p>The old password is an authentication, checked by the {@link AuthenticationGate} like a bind:
 * a wrong one counts as a failed bind and locks the account at the policy's limit, a locked
 * account's right one fails too, and every failure is the bind's invalidCredentials whether or not
 * the user exists. As in OpenDJ, the change is then made as the user the old password proved, so an
 * anonymous client may change a password it knows. Anonymous requests without an old password are
 * refused before anything is looked up.
 */
final class PasswordModifyOperation {
  static final String OID = PasswordModifyExtendedRequest.PASSWORD_MODIFY_REQUEST_OID;
  private static final char[] GENERATED_ALPHABET =
      "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789".toCharArray();
  private static final int GENERATED_LENGTH = 16;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final AuthenticationGate authentication;
  private final PasswordPolicies policies;
  private final PasswordChanges changes;
  private final EntryLookup entries;
  private final AccessControl access;
  private final PolicyWrites writes;

  PasswordModifyOperation(
      AuthenticationGate authentication,
      PasswordPolicies policies,
      PasswordChanges changes,
      EntryLookup entries,
      AccessControl access,
      PolicyWrites writes) {
    this.authentication = authentication;
    this.policies = policies;
    this.changes = changes;
    this.entries = entries;
    this.access = access;
    this.writes = writes;
  }

  void run(ClientConnection client, LDAPMessage request) throws LDAPException {
    ExtendedRequestProtocolOp op = request.getExtendedRequestProtocolOp();
    PasswordModifyExtendedRequest modify;
    try {
      modify = new PasswordModifyExtendedRequest(new ExtendedRequest(op.getOID(), op.getValue()));
    } catch (LDAPException e) {
      throw new LDAPException(
          ResultCode.PROTOCOL_ERROR, "invalid Password Modify request: " + e.getExceptionMessage());
    }
    byte[] oldPassword = modify.getOldPasswordBytes();
    if (client.identity().isAnonymous()
        && (oldPassword == null || modify.getUserIdentity() == null)) {
      throw new LDAPException(
          ResultCode.UNWILLING_TO_PERFORM,
          "Bind first, or name the user and give their old password");
    }
    ClientConnection actor = client;
    DN target;
    if (oldPassword != null) {
      target =
          modify.getUserIdentity() == null
              ? client.identity().dn()
              : userDnOrNull(modify.getUserIdentity());
      Identity proven =
          authentication
              .password(
                  client,
                  target,
                  oldPassword,
                  List.of(),
                  AuthenticationGate.Purpose.PASSWORD_CHANGE)
              .identity();
      if (!proven.equals(client.identity())) {
        actor = client.actingAs(proven);
      }
    } else {
      target =
          modify.getUserIdentity() == null
              ? client.identity().dn()
              : userDn(modify.getUserIdentity());
    }
    Identity identity = actor.identity();
    Entry entry = entries.get(target);
    if (entry == null) {
      throw new LDAPException(ResultCode.NO_SUCH_OBJECT, "The entry " + target + " does not exist");
    }
    PasswordPolicy policy = policies.policyFor(entry);
    boolean self = target.equals(identity.dn());
    if (oldPassword == null && self && policy.changeRequiresCurrent()) {
      throw new LDAPException(ResultCode.UNWILLING_TO_PERFORM, "The current password is required");
    }
    byte[] newPassword = modify.getNewPasswordBytes();
    String generated = null;
    if (newPassword == null) {
      generated = generate();
      newPassword = generated.getBytes(StandardCharsets.UTF_8);
    }
    List<Modification> clear =
        List.of(new Modification(ModificationType.REPLACE, PasswordState.PASSWORD, newPassword));
    access.checkModify(actor, target, clear);
    List<Modification> write = new ArrayList<>();
    write.add(
        new Modification(
            ModificationType.REPLACE,
            PasswordState.PASSWORD,
            policies.schemesFor(policy).toStoredValue(newPassword)));
    write.addAll(changes.stateChanges(actor, target, clear));
    // A prepared modify like a client's: the hash and the policy state chosen here once, a
    // generated password included, and applied alike by every server of a replication group.
    writes.modify(target, write, identity.dn());
    // PasswdModifyResponseValue ::= SEQUENCE { genPasswd [0] OCTET STRING OPTIONAL }
    ASN1OctetString value =
        generated == null
            ? null
            : new ASN1OctetString(
                new ASN1Sequence(new ASN1OctetString((byte) 0x80, generated)).encode());
    client
        .ldap()
        .send(
            new LDAPMessage(
                request.getMessageID(),
                new ExtendedResponseProtocolOp(
                    ResultCode.SUCCESS_INT_VALUE, null, null, null, null, value)));
  }

  private DN userDn(String userIdentity) throws LDAPException {
    String id =
        userIdentity.regionMatches(true, 0, "dn:", 0, 3) ? userIdentity.substring(3) : userIdentity;
    try {
      return new DN(id);
    } catch (LDAPException e) {
      throw new LDAPException(
          ResultCode.NO_SUCH_OBJECT,
          "The user identity \"" + userIdentity + "\" is not a DN (expected: dn:<dn> or <dn>)");
    }
  }

  /** The user as a DN, or null when it is none: the gate then refuses it like an unknown user. */
  private DN userDnOrNull(String userIdentity) {
    try {
      return userDn(userIdentity);
    } catch (LDAPException e) {
      return null;
    }
  }

  private static String generate() {
    char[] chars = new char[GENERATED_LENGTH];
    for (int i = 0; i < chars.length; i++) {
      chars[i] = GENERATED_ALPHABET[RANDOM.nextInt(GENERATED_ALPHABET.length)];
    }
    return new String(chars);
  }
}
