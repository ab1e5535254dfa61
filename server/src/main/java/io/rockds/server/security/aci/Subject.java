package io.rockds.server.security.aci;

import com.unboundid.ldap.sdk.DN;
import java.net.InetAddress;

/**
 * Who asks, as bind rules see it.
 *
 * @param dn the authorization DN; {@link DN#NULL_DN} when anonymous
 * @param authMethod {@code none}, {@code simple}, {@code ssl} (client certificate) or
 *     {@code sasl <mechanism>}
 * @param address the client's IP address; null for internal operations
 */
public record Subject(DN dn, String authMethod, InetAddress address) {
  public boolean isAnonymous() {
    return dn.isNullDN();
  }
}
