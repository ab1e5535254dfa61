package io.rockds.server.config;

import com.unboundid.ldap.protocol.AddRequestProtocolOp;
import com.unboundid.ldap.protocol.DeleteRequestProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.ModifyRequestProtocolOp;
import com.unboundid.ldap.protocol.ProtocolOp;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.config.ConfigDns;
import io.rockds.config.ConfigEditor;
import io.rockds.config.SharedConfig;
import io.rockds.server.Identity;
import io.rockds.server.OperationalAttributes;
import io.rockds.server.PasswordValues;
import io.rockds.server.ServerContext;
import io.rockds.server.WriteOutcome;
import io.rockds.server.WriteRecord;
import io.rockds.server.backend.AccessRule;
import io.rockds.server.backend.SearchResults;
import io.rockds.server.backend.SharedSettingsBackend;
import io.rockds.server.backend.Update;
import io.rockds.server.backend.Written;
import io.rockds.server.logging.ErrorSeverity;
import io.rockds.server.logging.ServerLogs;
import io.rockds.server.security.privilege.Privilege;
import java.util.ArrayList;
import java.util.List;

/**
 * The entries under {@code cn=config}, read and written over LDAP. Writes go through a {@link
 * ConfigEditor} (validated as a whole, saved atomically), then are applied live; a refused write
 * leaves both the file and the running server untouched. Governed by privileges alone: {@code
 * config-read} to read it, {@code config-write} to change it; no ACI applies.
 *
 * <p>In a replication group a change of the configuration every server shares ({@link
 * SharedConfig}: password policies, indexes, plugins, global ACIs) is a settings record of the
 * replication log, applied by every server ({@link #applySettings}); a change of the server's own
 * configuration (listeners, TLS, storage, logs) applies on the server that received it.
 */
public final class ConfigBackend implements SharedSettingsBackend {
  private static final AccessRule READ =
      AccessRule.privileged(identity -> require(identity, "config-read", "read the configuration"));
  private static final AccessRule WRITE =
      AccessRule.privileged(
          identity -> Privilege.CONFIG_WRITE.require(identity, "change the configuration"));

  private final ConfigEditor editor;
  private final LiveConfiguration live;
  private final ServerLogs logs;

  public ConfigBackend(ConfigEditor editor, LiveConfiguration live, ServerLogs logs) {
    this.editor = editor;
    this.live = live;
    this.logs = logs;
  }

  @Override
  public List<DN> baseDns() {
    return List.of(ConfigDns.CONFIG);
  }

  @Override
  public AccessRule readAccess() {
    return READ;
  }

  @Override
  public AccessRule writeAccess() {
    return WRITE;
  }

  @Override
  public Entry get(DN dn) {
    return editor.store().get(dn);
  }

  /** The configuration entries in scope of {@code base}. */
  @Override
  public void search(DN base, SearchScope scope, SearchResults results) throws LDAPException {
    if (editor.store().get(base) == null) {
      throw new LDAPException(
          ResultCode.NO_SUCH_OBJECT, "The configuration entry " + base + " does not exist");
    }
    for (Entry entry : editor.store().all()) {
      DN dn = entry.getParsedDN();
      boolean inScope =
          switch (scope.intValue()) {
            case SearchScope.BASE_INT_VALUE -> dn.equals(base);
            case SearchScope.ONE_INT_VALUE -> base.equals(dn.getParent());
            case SearchScope.SUBORDINATE_SUBTREE_INT_VALUE -> dn.isDescendantOf(base, false);
            default -> dn.isDescendantOf(base, true);
          };
      if (inScope && !results.inScope(entry)) {
        return;
      }
    }
  }

  /**
   * Adds a configuration object; the result's notice tells the operator of a restart or rebuild.
   */
  @Override
  public Written add(Update update, Entry entry) throws LDAPException {
    PasswordValues.hash(entry, update.context().configuration().rootPasswords());
    DN dn = entry.getParsedDN();
    AddRequestProtocolOp add =
        new AddRequestProtocolOp(entry.getDN(), new ArrayList<>(entry.getAttributes()));
    return write(update, SharedConfig.ofEntry(dn), add);
  }

  @Override
  public Written modify(Update update, DN dn, List<Modification> modifications)
      throws LDAPException {
    List<Modification> hashed = new ArrayList<>(modifications.size());
    for (Modification m : modifications) {
      hashed.add(PasswordValues.hash(m, update.context().configuration().rootPasswords()));
    }
    SharedConfig.Scope scope =
        SharedConfig.ofModify(dn, hashed.stream().map(Modification::getAttributeName).toList());
    return write(update, scope, new ModifyRequestProtocolOp(dn.toString(), hashed));
  }

  @Override
  public Written delete(Update update, DN dn) throws LDAPException {
    return write(update, SharedConfig.ofEntry(dn), new DeleteRequestProtocolOp(dn.toString()));
  }

  /**
   * A change of the shared configuration goes down the write path as a settings record (through the
   * replication log in a group, so every server applies it); a change of this server's own applies
   * here alone. A change of both is refused in a group: each part goes its own way.
   */
  private Written write(Update update, SharedConfig.Scope scope, ProtocolOp change)
      throws LDAPException {
    ServerContext context = update.context();
    LDAPMessage request =
        new LDAPMessage(update.request().getMessageID(), change, update.request().getControls());
    WriteRecord record =
        WriteRecord.ofSettings(update.identity().dn(), OperationalAttributes.now(), request);
    if (scope == SharedConfig.Scope.MIXED && context.writes().replicated()) {
      throw new LDAPException(
          ResultCode.UNWILLING_TO_PERFORM,
          "The change mixes settings every server of the replication group shares ("
              + String.join(", ", SharedConfig.sharedGlobalAttributes())
              + ") with settings of this server alone: make them in two requests");
    }
    if (scope == SharedConfig.Scope.SHARED) {
      return Written.notice(context.writes().commit(record, context.applier()).message());
    }
    return Written.notice(applySettings(record).message());
  }

  /**
   * Applies a configuration change: the same on every server of a group given the same shared
   * configuration (the one apply step of a settings record), or this server's own change.
   */
  @Override
  public synchronized WriteOutcome applySettings(WriteRecord record) throws LDAPException {
    LDAPMessage request = record.request();
    DN dn = record.targetDn();
    ConfigEditor.Outcome outcome = change(editor, record);
    String what =
        switch (request.getProtocolOpType()) {
          case LDAPMessage.PROTOCOL_OP_TYPE_ADD_REQUEST -> "added ";
          case LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_REQUEST -> "modified ";
          default -> "deleted ";
        };
    live.apply(outcome.config());
    logs.error(
        ErrorSeverity.INFO,
        "CONFIG",
        "configuration " + what + dn + (outcome.notice() == null ? "" : ": " + outcome.notice()));
    return WriteOutcome.applied(outcome.notice());
  }

  /** Tries the change on a copy of the configuration. */
  @Override
  public void checkSettings(WriteRecord record) throws LDAPException {
    change(editor.trial(), record);
  }

  private static ConfigEditor.Outcome change(ConfigEditor editor, WriteRecord record)
      throws LDAPException {
    LDAPMessage request = record.request();
    DN dn = record.targetDn();
    return switch (request.getProtocolOpType()) {
      case LDAPMessage.PROTOCOL_OP_TYPE_ADD_REQUEST ->
          editor.add(new Entry(dn, request.getAddRequestProtocolOp().getAttributes()));
      case LDAPMessage.PROTOCOL_OP_TYPE_MODIFY_REQUEST ->
          editor.modify(dn, request.getModifyRequestProtocolOp().getModifications());
      case LDAPMessage.PROTOCOL_OP_TYPE_DELETE_REQUEST -> editor.delete(dn);
      default ->
          throw new LDAPException(
              ResultCode.UNWILLING_TO_PERFORM, "The configuration entry cannot be renamed");
    };
  }

  private static void require(Identity identity, String privilege, String action)
      throws LDAPException {
    if (!identity.has(privilege)) {
      throw new LDAPException(
          ResultCode.INSUFFICIENT_ACCESS_RIGHTS,
          "You do not have the " + privilege + " privilege needed to " + action);
    }
  }
}
