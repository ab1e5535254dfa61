package io.rockds.server.sasl;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.server.ClientConnection;
import io.rockds.server.Identity;
import io.rockds.server.ServerContext;
import io.rockds.server.UserEntries;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * SASL PLAIN (RFC 4616): {@code [authzid] NUL authcid NUL password}. The authentication ID is
 * {@code dn:<dn>} or {@code u:<uid>} (a bare name counts as a uid), looked up by uid equality
 * under every backend. Proxying to another authorization ID is not supported: a non-empty authzid
 * must name the authenticated user itself. Wrong users and wrong passwords fail alike with
 * invalidCredentials.
 */
final class PlainMechanism implements SaslMechanism {
  private static final String INVALID = "Invalid credentials";

  private final ServerContext context;
  private final UserEntries users;

  PlainMechanism(ServerContext context, UserEntries users) {
    this.context = context;
    this.users = users;
  }

  @Override
  public String name() {
    return "PLAIN";
  }

  @Override
  public Identity authenticate(ClientConnection client, ASN1OctetString credentials) throws LDAPException {
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
    Identity identity = authenticate(authcId, password);
    if (identity == null) {
      throw new LDAPException(ResultCode.INVALID_CREDENTIALS, INVALID);
    }
    if (!authzId.isEmpty() && !authzId.equals(authcId) && !authzId.equals(identity.authzId())) {
      throw new LDAPException(ResultCode.AUTHORIZATION_DENIED,
          "Authorizing as another user (" + authzId + ") is not supported");
    }
    return identity;
  }

  private Identity authenticate(String authcId, byte[] password) throws LDAPException {
    if (password.length == 0) {
      return null;
    }
    if (authcId.startsWith("dn:")) {
      DN dn;
      try {
        dn = new DN(authcId.substring(3));
      } catch (LDAPException e) {
        return null;
      }
      if (context.rootUsers().isRoot(dn)) {
        return context.rootUsers().authenticate(dn, password);
      }
      Entry entry = users.byDn(dn);
      return entry != null && users.passwordMatches(entry, password) ? UserEntries.identityOf(entry) : null;
    }
    String uid = authcId.startsWith("u:") ? authcId.substring(2) : authcId;
    List<Entry> found = users.byUid(uid);
    if (found.size() != 1 || !users.passwordMatches(found.get(0), password)) {
      return null;
    }
    return UserEntries.identityOf(found.get(0));
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
