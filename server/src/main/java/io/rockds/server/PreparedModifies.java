package io.rockds.server;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.ModifyRequestProtocolOp;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import io.rockds.server.security.policy.PolicyWrites;
import java.util.List;
import java.util.function.Supplier;

/**
 * The modifies the server prepares itself, with no client modify request: the new password of a
 * Password Modify extended operation and the password policy state binds keep. Each is a {@link
 * WriteRecord} sent down the server's {@link WritePath} and applied like a client's modify: at once
 * on a single server, on every server of a replication group in log order, recorded in cn=changelog
 * and heard by persistent searches.
 */
final class PreparedModifies implements PolicyWrites {
  private static final Control PERMISSIVE = new Control(WriteControls.PERMISSIVE_MODIFY, false);

  /** Built after the security services that use this. */
  private final Supplier<ServerContext> services;

  PreparedModifies(Supplier<ServerContext> services) {
    this.services = services;
  }

  @Override
  public void modify(DN dn, List<Modification> modifications, DN modifier) throws LDAPException {
    commit(new WriteRecord(modifier, OperationalAttributes.now(), request(dn, modifications)));
  }

  @Override
  public void state(DN dn, List<Modification> modifications) throws LDAPException {
    commit(
        new WriteRecord(
            dn, OperationalAttributes.now(), request(dn, modifications, PERMISSIVE), false));
  }

  private void commit(WriteRecord record) throws LDAPException {
    ServerContext context = services.get();
    context.writes().commit(record, context.applier());
  }

  /** The server's own request: no client numbered it. */
  private static LDAPMessage request(DN dn, List<Modification> modifications, Control... controls) {
    return new LDAPMessage(0, new ModifyRequestProtocolOp(dn.toString(), modifications), controls);
  }
}
