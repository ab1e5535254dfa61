package io.rockds.server.security.aci;

import com.unboundid.ldap.sdk.DN;
import java.net.InetAddress;

/**
 * Who asks, as bind rules see it.
 *
 * @param dn the authorization DN; {@link DN#NULL_DN} when anonymous
 * @param authMethod how the client bound: {@code none}, {@code simple} or {@code sasl <mechanism>}
 * @param address the client's IP address; null for internal operations
 * @param ssf the security strength factor of the connection: 0 in clear text, else the key size in
 *     bits of the TLS cipher (128, 256)
 */
public record Subject(DN dn, String authMethod, InetAddress address, int ssf) {
  public boolean isAnonymous() {
    return dn.isNullDN();
  }
}
