package io.rockds.server.config;

import io.rockds.storage.matching.FilterEvaluator;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.config.ConfigEditor;
import io.rockds.server.Identity;
import io.rockds.server.logging.ErrorSeverity;
import io.rockds.server.logging.ServerLogs;
import java.util.ArrayList;
import java.util.List;

/**
 * The entries under {@code cn=config}, read and written over LDAP. Writes go through a
 * {@link ConfigEditor} (validated as a whole, saved atomically), then are applied live; a refused
 * write leaves both the file and the running server untouched.
 */
public final class ConfigBackend {
  private final ConfigEditor editor;
  private final LiveConfiguration live;
  private final ServerLogs logs;
  private final Schema schema;

  public ConfigBackend(ConfigEditor editor, LiveConfiguration live, ServerLogs logs, Schema schema) {
    this.editor = editor;
    this.live = live;
    this.logs = logs;
    this.schema = schema;
  }

  /** The configuration entries in scope that match {@code filter}; needs {@code config-read}. */
  public List<Entry> search(Identity identity, DN base, SearchScope scope, Filter filter) throws LDAPException {
    require(identity, "config-read", "read the configuration");
    if (editor.store().get(base) == null) {
      throw new LDAPException(ResultCode.NO_SUCH_OBJECT, "The configuration entry " + base + " does not exist");
    }
    List<Entry> out = new ArrayList<>();
    for (Entry entry : editor.store().all()) {
      DN dn = entry.getParsedDN();
      boolean inScope = switch (scope.intValue()) {
        case SearchScope.BASE_INT_VALUE -> dn.equals(base);
        case SearchScope.ONE_INT_VALUE -> base.equals(dn.getParent());
        case SearchScope.SUBORDINATE_SUBTREE_INT_VALUE -> dn.isDescendantOf(base, false);
        default -> dn.isDescendantOf(base, true);
      };
      if (inScope && FilterEvaluator.forSchema(schema).matches(filter, entry)) {
        out.add(entry);
      }
    }
    return out;
  }

  /** Adds a configuration object; returns a notice for the operator (restart, rebuild) or null. */
  public synchronized String add(Identity identity, Entry entry) throws LDAPException {
    require(identity, "config-write", "change the configuration");
    return applied(editor.add(entry), "added " + entry.getDN());
  }

  public synchronized String modify(Identity identity, DN dn, List<Modification> modifications)
      throws LDAPException {
    require(identity, "config-write", "change the configuration");
    return applied(editor.modify(dn, modifications), "modified " + dn);
  }

  public synchronized String delete(Identity identity, DN dn) throws LDAPException {
    require(identity, "config-write", "change the configuration");
    return applied(editor.delete(dn), "deleted " + dn);
  }

  private String applied(ConfigEditor.Outcome outcome, String what) throws LDAPException {
    live.apply(outcome.config());
    logs.error(ErrorSeverity.INFO, "CONFIG", "configuration " + what
        + (outcome.notice() == null ? "" : ": " + outcome.notice()));
    return outcome.notice();
  }

  private static void require(Identity identity, String privilege, String action) throws LDAPException {
    if (!identity.has(privilege)) {
      throw new LDAPException(ResultCode.INSUFFICIENT_ACCESS_RIGHTS,
          "You do not have the " + privilege + " privilege needed to " + action);
    }
  }
}
