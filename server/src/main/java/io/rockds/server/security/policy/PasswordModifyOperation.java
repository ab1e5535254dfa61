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
 * The Password Modify extended operation (RFC 3062): a user changes their own password (giving
 * the old one, which must be right), or an administrator with the {@code password-reset}
 * privilege and the write right on {@code userPassword} resets someone else's. Without a new
 * password the server generates one and returns it.
 */
final class PasswordModifyOperation {
  static final String OID = PasswordModifyExtendedRequest.PASSWORD_MODIFY_REQUEST_OID;
  private static final char[] GENERATED_ALPHABET =
      "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789".toCharArray();
  private static final int GENERATED_LENGTH = 16;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final PasswordPolicies policies;
  private final PasswordChanges changes;
  private final EntryLookup entries;
  private final AccessControl access;

  PasswordModifyOperation(PasswordPolicies policies, PasswordChanges changes, EntryLookup entries,
      AccessControl access) {
    this.policies = policies;
    this.changes = changes;
    this.entries = entries;
    this.access = access;
  }

  void run(ClientConnection client, LDAPMessage request) throws LDAPException {
    ExtendedRequestProtocolOp op = request.getExtendedRequestProtocolOp();
    PasswordModifyExtendedRequest modify;
    try {
      modify = new PasswordModifyExtendedRequest(new ExtendedRequest(op.getOID(), op.getValue()));
    } catch (LDAPException e) {
      throw new LDAPException(ResultCode.PROTOCOL_ERROR, "invalid Password Modify request: " + e.getExceptionMessage());
    }
    Identity identity = client.identity();
    DN target = modify.getUserIdentity() == null ? identity.dn() : userDn(modify.getUserIdentity());
    if (target.isNullDN()) {
      throw new LDAPException(ResultCode.UNWILLING_TO_PERFORM,
          "Bind first, or name the user whose password is to change");
    }
    Entry entry = entries.get(target);
    if (entry == null) {
      throw new LDAPException(ResultCode.NO_SUCH_OBJECT, "The entry " + target + " does not exist");
    }
    PasswordPolicy policy = policies.policyFor(entry);
    boolean self = target.equals(identity.dn());
    byte[] oldPassword = modify.getOldPasswordBytes();
    if (oldPassword != null) {
      if (!verifies(oldPassword, entry, policy)) {
        throw new LDAPException(ResultCode.INVALID_CREDENTIALS, "The old password is not correct");
      }
    } else if (self && policy.changeRequiresCurrent()) {
      throw new LDAPException(ResultCode.UNWILLING_TO_PERFORM, "The current password is required");
    }
    byte[] newPassword = modify.getNewPasswordBytes();
    String generated = null;
    if (newPassword == null) {
      generated = generate();
      newPassword = generated.getBytes(StandardCharsets.UTF_8);
    }
    List<Modification> clear = List.of(new Modification(ModificationType.REPLACE, PasswordState.PASSWORD, newPassword));
    access.checkModify(client, target, clear);
    List<Modification> write = new ArrayList<>();
    write.add(new Modification(ModificationType.REPLACE, PasswordState.PASSWORD,
        policies.schemesFor(policy).toStoredValue(newPassword)));
    write.addAll(changes.stateChanges(client, target, clear));
    entries.modify(target, write, identity);
    // PasswdModifyResponseValue ::= SEQUENCE { genPasswd [0] OCTET STRING OPTIONAL }
    ASN1OctetString value = generated == null ? null
        : new ASN1OctetString(new ASN1Sequence(new ASN1OctetString((byte) 0x80, generated)).encode());
    client.ldap().send(new LDAPMessage(request.getMessageID(),
        new ExtendedResponseProtocolOp(ResultCode.SUCCESS_INT_VALUE, null, null, null, null, value)));
  }

  private DN userDn(String userIdentity) throws LDAPException {
    String id = userIdentity.regionMatches(true, 0, "dn:", 0, 3) ? userIdentity.substring(3) : userIdentity;
    try {
      return new DN(id);
    } catch (LDAPException e) {
      throw new LDAPException(ResultCode.NO_SUCH_OBJECT, "The user identity \"" + userIdentity
          + "\" is not a DN (expected: dn:<dn> or <dn>)");
    }
  }

  private boolean verifies(byte[] password, Entry entry, PasswordPolicy policy) {
    byte[][] stored = entry.getAttributeValueByteArrays(PasswordState.PASSWORD);
    if (stored != null) {
      for (byte[] value : stored) {
        if (policies.schemesFor(policy).verify(password, value)) {
          return true;
        }
      }
    }
    return false;
  }

  private static String generate() {
    char[] chars = new char[GENERATED_LENGTH];
    for (int i = 0; i < chars.length; i++) {
      chars[i] = GENERATED_ALPHABET[RANDOM.nextInt(GENERATED_ALPHABET.length)];
    }
    return new String(chars);
  }
}
