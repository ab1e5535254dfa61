package io.rockds.tools.dsconfig;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import io.rockds.config.ConfigEditor;
import io.rockds.config.ConfigException;
import io.rockds.config.ConfigStore;
import io.rockds.layout.Instance;
import io.rockds.server.config.LiveConfiguration;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;

/**
 * The {@code config.ldif} of a stopped server, edited through the same {@link ConfigEditor} the
 * server uses, so an offline change is validated and archived exactly like an online one.
 */
final class OfflineConfigConnection implements ConfigConnection {
  private final ConfigEditor editor;

  private OfflineConfigConnection(ConfigEditor editor) {
    this.editor = editor;
  }

  /**
   * Refuses a running server: it would not see the change and would overwrite it at its next write.
   */
  static OfflineConfigConnection open(Instance instance) throws ConfigException {
    if (isRunning(instance)) {
      throw new ConfigException(
          "the server of "
              + instance.root()
              + " is running: stop it first, or drop --offline"
              + " to change its configuration over LDAP");
    }
    return new OfflineConfigConnection(
        new ConfigEditor(
            ConfigStore.load(instance.configFile()), LiveConfiguration::checkApplicable));
  }

  /**
   * A live pid in logs/server.pid (bin/start-ds), or a started marker without one (an embedded
   * server).
   */
  private static boolean isRunning(Instance instance) throws ConfigException {
    if (!Files.isRegularFile(instance.pidFile())) {
      return Files.exists(instance.startedFile());
    }
    try {
      long pid = Long.parseLong(Files.readString(instance.pidFile()).trim());
      return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    } catch (IOException | NumberFormatException e) {
      throw new ConfigException("cannot read " + instance.pidFile() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public Entry get(DN dn) {
    return editor.store().get(dn);
  }

  @Override
  public List<Entry> children(DN parent) {
    return editor.store().children(parent);
  }

  @Override
  public String add(Entry entry) throws LDAPException {
    return editor.add(entry).notice();
  }

  @Override
  public String modify(DN dn, List<Modification> modifications) throws LDAPException {
    return editor.modify(dn, modifications).notice();
  }

  @Override
  public String delete(DN dn) throws LDAPException {
    return editor.delete(dn).notice();
  }

  @Override
  public void close() {
    // Every change was saved when it was made.
  }
}
