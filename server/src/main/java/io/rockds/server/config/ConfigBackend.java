package io.rockds.server.config;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.config.ConfigDns;
import io.rockds.config.ConfigEditor;
import io.rockds.server.Identity;
import io.rockds.server.PasswordValues;
import io.rockds.server.backend.AccessRule;
import io.rockds.server.backend.DirectoryBackend;
import io.rockds.server.backend.SearchResults;
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
 */
public final class ConfigBackend implements DirectoryBackend {
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
  public synchronized Written add(Update update, Entry entry) throws LDAPException {
    PasswordValues.hash(entry, update.context().configuration().rootPasswords());
    return applied(editor.add(entry), "added " + entry.getDN());
  }

  @Override
  public synchronized Written modify(Update update, DN dn, List<Modification> modifications)
      throws LDAPException {
    List<Modification> hashed = new ArrayList<>(modifications.size());
    for (Modification m : modifications) {
      hashed.add(PasswordValues.hash(m, update.context().configuration().rootPasswords()));
    }
    return applied(editor.modify(dn, hashed), "modified " + dn);
  }

  @Override
  public synchronized Written delete(Update update, DN dn) throws LDAPException {
    return applied(editor.delete(dn), "deleted " + dn);
  }

  private Written applied(ConfigEditor.Outcome outcome, String what) throws LDAPException {
    live.apply(outcome.config());
    logs.error(
        ErrorSeverity.INFO,
        "CONFIG",
        "configuration " + what + (outcome.notice() == null ? "" : ": " + outcome.notice()));
    return Written.notice(outcome.notice());
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
