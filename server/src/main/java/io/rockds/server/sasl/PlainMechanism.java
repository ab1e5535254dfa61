package io.rockds.server.sasl;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.server.ClientConnection;
import io.rockds.server.UserEntries;
import io.rockds.server.security.policy.AuthenticationGate;
import io.rockds.server.security.policy.BindOutcome;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * SASL PLAIN (RFC 4616): {@code [authzid] NUL authcid NUL password}. The authentication ID is
 * {@code dn:<dn>} or {@code u:<uid>} (a bare name counts as a uid), looked up by uid equality under
 * every backend; the password is then checked by the {@link AuthenticationGate} exactly as a simple
 * bind's (lockout, disabled accounts, require-secure-authentication). Proxying to another
 * authorization ID is not supported: a non-empty authzid must name the authenticated user itself.
 * Wrong users and wrong passwords fail alike with invalidCredentials.
 */
final class PlainMechanism implements SaslMechanism {
  private final AuthenticationGate gate;
  private final UserEntries users;

  PlainMechanism(AuthenticationGate gate, UserEntries users) {
    this.gate = gate;
    this.users = users;
  }

  @Override
  public String name() {
    return "PLAIN";
  }

  @Override
  public BindOutcome authenticate(
      ClientConnection client, ASN1OctetString credentials, List<Control> requestControls)
      throws LDAPException {
    if (credentials == null) {
      throw new LDAPException(ResultCode.INVALID_CREDENTIALS, "SASL PLAIN requires credentials");
    }
    byte[] value = credentials.getValue();
    int first = indexOf(value, 0);
    int second = first < 0 ? -1 : indexOf(value, first + 1);
    if (second < 0) {
      throw new LDAPException(ResultCode.INVALID_CREDENTIALS, "Malformed SASL PLAIN credentials");
    }
    String authzId = new String(value, 0, first, StandardCharsets.UTF_8);
    String authcId = new String(value, first + 1, second - first - 1, StandardCharsets.UTF_8);
    byte[] password = Arrays.copyOfRange(value, second + 1, value.length);
    if (password.length == 0) {
      throw new LDAPException(ResultCode.INVALID_CREDENTIALS, "SASL PLAIN requires a password");
    }
    BindOutcome outcome =
        gate.password(
            client, resolve(authcId), password, requestControls, AuthenticationGate.Purpose.BIND);
    if (!authzId.isEmpty()
        && !authzId.equals(authcId)
        && !authzId.equals(outcome.identity().authzId())) {
      throw new LDAPException(
          ResultCode.AUTHORIZATION_DENIED,
          "Authorizing as another user (" + authzId + ") is not supported");
    }
    return outcome;
  }

  /** The DN an authentication ID names, or null when it names no single entry. */
  private DN resolve(String authcId) throws LDAPException {
    if (authcId.startsWith("dn:")) {
      try {
        return new DN(authcId.substring(3));
      } catch (LDAPException e) {
        return null;
      }
    }
    List<Entry> found = users.byUid(authcId.startsWith("u:") ? authcId.substring(2) : authcId);
    return found.size() == 1 ? found.get(0).getParsedDN() : null;
  }

  private static int indexOf(byte[] value, int from) {
    for (int i = from; i < value.length; i++) {
      if (value[i] == 0) {
        return i;
      }
    }
    return -1;
  }
}
