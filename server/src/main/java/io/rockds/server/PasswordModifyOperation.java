package io.rockds.server;

import com.unboundid.asn1.ASN1Element;
import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.asn1.ASN1Sequence;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.ExtendedRequest;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedRequest;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;

/**
 * The Password Modify extended operation (RFC 3062), basic form: a user changes their own
 * password by giving the current one, and a root user sets anyone's. The new value is stored
 * through the default password scheme. Without a new password the server generates one and
 * returns it. Password policy (quality, history, expiry) is not applied here.
 */
final class PasswordModifyOperation {
  static final String OID = PasswordModifyExtendedRequest.PASSWORD_MODIFY_REQUEST_OID;
  private static final byte GENERATED_PASSWORD_TAG = (byte) 0x80;
  private static final String ALPHABET = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final ServerContext context;
  private final ClientConnection client;
  private final ExtendedRequest request;

  PasswordModifyOperation(ServerContext context, ClientConnection client, ExtendedRequest request) {
    this.context = context;
    this.client = client;
    this.request = request;
  }

  /** Changes the password; returns the response value (the generated password), or null. */
  ASN1OctetString run() throws LDAPException {
    PasswordModifyExtendedRequest modify;
    try {
      modify = new PasswordModifyExtendedRequest(request);
    } catch (LDAPException e) {
      throw new LDAPException(ResultCode.PROTOCOL_ERROR, "Malformed password modify request: " + e.getMessage());
    }
    Identity identity = client.identity();
    if (identity.isAnonymous()) {
      throw new LDAPException(ResultCode.UNWILLING_TO_PERFORM, "Only authenticated users may change passwords");
    }
    DN target = modify.getUserIdentity() == null ? identity.dn() : parseIdentity(modify.getUserIdentity());
    boolean self = target.equals(identity.dn());
    if (context.rootUsers().isRoot(target)) {
      throw new LDAPException(ResultCode.UNWILLING_TO_PERFORM,
          "Root user passwords are set in the configuration, not with password modify");
    }
    if (!self && !identity.root()) {
      throw new LDAPException(ResultCode.INSUFFICIENT_ACCESS_RIGHTS,
          "You may only change your own password");
    }
    UserEntries users = new UserEntries(context);
    Entry entry = users.byDn(target);
    if (entry == null) {
      throw new LDAPException(ResultCode.NO_SUCH_OBJECT, "The entry " + target + " does not exist");
    }
    if (!identity.root()) {
      byte[] old = modify.getOldPasswordBytes();
      if (old == null) {
        throw new LDAPException(ResultCode.UNWILLING_TO_PERFORM, "The current password is required");
      }
      if (!users.passwordMatches(entry, old)) {
        throw new LDAPException(ResultCode.INVALID_CREDENTIALS, "The current password is wrong");
      }
    }
    byte[] generated = modify.getNewPasswordBytes() == null ? generate() : null;
    byte[] clear = generated != null ? generated : modify.getNewPasswordBytes();
    if (clear.length == 0) {
      throw new LDAPException(ResultCode.UNWILLING_TO_PERFORM, "The new password must not be empty");
    }
    byte[] stored = context.passwords().toStoredValue(clear);
    WriteTarget.container(context, target).modify(target, current -> {
      Entry updated = current.duplicate();
      updated.setAttribute(new Attribute(PasswordValues.ATTRIBUTE, new byte[][] {stored}));
      OperationalAttributes.onModify(updated, identity);
      return updated;
    });
    return generated == null ? null : new ASN1OctetString(
        new ASN1Sequence(new ASN1Element[] {new ASN1OctetString(GENERATED_PASSWORD_TAG, generated)}).encode());
  }

  /** A userIdentity is {@code dn:<dn>} or a plain DN. */
  private static DN parseIdentity(String userIdentity) throws LDAPException {
    String dn = userIdentity.startsWith("dn:") ? userIdentity.substring(3) : userIdentity;
    try {
      return new DN(dn);
    } catch (LDAPException e) {
      throw new LDAPException(ResultCode.NO_SUCH_OBJECT, "Unsupported user identity " + userIdentity);
    }
  }

  private static byte[] generate() {
    StringBuilder password = new StringBuilder(16);
    for (int i = 0; i < 16; i++) {
      password.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
    }
    return password.toString().getBytes(StandardCharsets.UTF_8);
  }
}
