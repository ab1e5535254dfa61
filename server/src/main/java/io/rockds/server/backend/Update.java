package io.rockds.server.backend;

import com.unboundid.ldap.protocol.LDAPMessage;
import io.rockds.server.ClientConnection;
import io.rockds.server.Identity;
import io.rockds.server.ServerContext;

/**
 * An update request as a backend sees it, access control already passed.
 *
 * @param context the server's services
 * @param client the connection the update runs as (after proxied authorization)
 * @param request the LDAP request, for its controls
 */
public record Update(ServerContext context, ClientConnection client, LDAPMessage request) {
  public Identity identity() {
    return client.identity();
  }
}
