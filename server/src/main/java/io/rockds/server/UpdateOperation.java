package io.rockds.server;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.server.backend.DirectoryBackend;
import io.rockds.server.backend.Update;
import io.rockds.server.backend.Written;

/**
 * An update (add, delete, modify, modify DN): routed by the DN it names to the one backend holding
 * it, checked by that backend's access rule and applied by it, then answered with success and what
 * the backend had to say. Each operation says how it reads its DN and what it checks and asks.
 */
abstract class UpdateOperation {
  final ServerContext context;
  final ClientConnection client;
  final LDAPMessage request;

  UpdateOperation(ServerContext context, ClientConnection client, LDAPMessage request) {
    this.context = context;
    this.client = client;
    this.request = request;
  }

  /** The DN the request names, parsed. */
  abstract DN targetDn() throws LDAPException;

  /** Checks the access {@code backend} requires and has it apply the update of {@code dn}. */
  abstract Written apply(DirectoryBackend backend, DN dn, Update update) throws LDAPException;

  final void run() throws LDAPException {
    DN dn = targetDn();
    Written written = apply(context.router().route(dn), dn, new Update(context, client, request));
    context.access().written(dn);
    client
        .ldap()
        .send(
            Responses.result(
                request, ResultCode.SUCCESS, null, written.notice(), written.controls()));
  }
}
