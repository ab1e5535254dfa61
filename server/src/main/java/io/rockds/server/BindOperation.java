package io.rockds.server;

import com.unboundid.ldap.protocol.BindRequestProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.server.sasl.SaslMechanism;
import io.rockds.server.sasl.SaslMechanisms;
import io.rockds.server.security.policy.AuthenticationGate;
import io.rockds.server.security.policy.BindOutcome;
import java.util.List;
import java.util.Locale;

/**
 * A bind (RFC 4511 section 4.2, RFC 4513). A failed bind leaves the connection anonymous. A DN with
 * an empty password is an unauthenticated bind, refused with unwillingToPerform (53) as RFC 4513
 * section 5.1.2 recommends; wrong DNs and wrong passwords get the same invalidCredentials (49), so
 * a client cannot probe which DNs exist. Simple binds go through the {@link
 * io.rockds.server.security.policy.AuthenticationGate}; SASL binds go to the mechanism of that name
 * in {@link SaslMechanisms}, which authenticates through the same gate.
 */
final class BindOperation {
  private static final String INVALID = "Invalid credentials";

  private final ServerContext context;
  private final SaslMechanisms sasl;
  private final ClientConnection client;
  private final LDAPMessage request;

  /**
   * Running on an event loop ({@link #mayRunInline}): the password check gives way to a worker
   * ({@link RunOnWorker}) when it would wait ({@link AuthenticationGate#passwordOnEventLoop}).
   */
  private final boolean inline;

  BindOperation(
      ServerContext context,
      SaslMechanisms sasl,
      ClientConnection client,
      LDAPMessage request,
      boolean inline) {
    this.context = context;
    this.sasl = sasl;
    this.client = client;
    this.request = request;
    this.inline = inline;
  }

  /**
   * Whether {@code request} is a bind that may be tried on an event loop: a simple bind, whose
   * password check is usually one salted digest and a read of the entry. SASL binds run on a
   * worker.
   */
  static boolean mayRunInline(LDAPMessage request) {
    return request.getProtocolOpType() == LDAPMessage.PROTOCOL_OP_TYPE_BIND_REQUEST
        && request.getBindRequestProtocolOp().getCredentialsType()
            == BindRequestProtocolOp.CRED_TYPE_SIMPLE;
  }

  void run() throws LDAPException {
    BindRequestProtocolOp bind = request.getBindRequestProtocolOp();
    client.setIdentity(Identity.ANONYMOUS, ClientConnection.NO_AUTHENTICATION);
    if (bind.getVersion() != 3) {
      throw new LDAPException(ResultCode.PROTOCOL_ERROR, "only LDAP version 3 is supported");
    }
    boolean simple = bind.getCredentialsType() == BindRequestProtocolOp.CRED_TYPE_SIMPLE;
    BindOutcome outcome = simple ? simple(bind) : sasl(bind);
    client.setIdentity(
        outcome.identity(),
        simple ? "simple" : "sasl " + bind.getSASLMechanism().toUpperCase(Locale.ROOT));
    client
        .ldap()
        .send(
            Responses.result(request, ResultCode.SUCCESS, null, null, outcome.responseControls()));
  }

  private BindOutcome sasl(BindRequestProtocolOp bind) throws LDAPException {
    SaslMechanism mechanism = sasl.get(bind.getSASLMechanism());
    if (mechanism == null) {
      throw new LDAPException(
          ResultCode.AUTH_METHOD_NOT_SUPPORTED,
          "SASL mechanism "
              + bind.getSASLMechanism()
              + " is not supported; supported: "
              + sasl.names());
    }
    return mechanism.authenticate(client, bind.getSASLCredentials(), request.getControls());
  }

  /** Simple binds go through the authentication gate, which may add response controls. */
  private BindOutcome simple(BindRequestProtocolOp bind) throws LDAPException {
    DN dn = Dns.parse(bind.getBindDN());
    byte[] password = bind.getSimplePassword().getValue();
    if (dn.isNullDN()) {
      if (password.length > 0) {
        throw new LDAPException(ResultCode.INVALID_CREDENTIALS, INVALID);
      }
      return new BindOutcome(Identity.ANONYMOUS, List.of());
    }
    if (password.length == 0) {
      throw new LDAPException(
          ResultCode.UNWILLING_TO_PERFORM, "Unauthenticated binds are not allowed");
    }
    AuthenticationGate gate = context.passwordPolicy().authentication();
    return inline
        ? gate.passwordOnEventLoop(client, dn, password, request.getControls())
        : gate.password(
            client, dn, password, request.getControls(), AuthenticationGate.Purpose.BIND);
  }
}
