package io.rockds.server;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.config.ConfigException;
import io.rockds.config.ConfigStore;
import io.rockds.config.InitialConfig;
import io.rockds.config.ServerConfig;
import io.rockds.layout.Instance;
import io.rockds.server.schema.SchemaLoader;
import io.rockds.server.security.password.PasswordSchemeSettings;
import io.rockds.server.security.password.PasswordSchemes;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.MemoryBudget;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;

/**
 * Creates an instance directory: its configuration (root password hashed) and its initial entries,
 * written offline through the storage API. Used by {@code bin/setup} and by tests.
 *
 * <p>The instance directory is made private to its owner (rwx------) before anything is written
 * into it, so the configuration with the root password hash, the database and the logs are out of
 * other users' reach whatever the umask; the bin/ scripts also run with umask 077.
 */
public final class InstanceSetup {
  private InstanceSetup() {}

  /**
   * @param rootPassword clear text; stored with the scheme setup was given if it is iterated, else
   *     with {@link PasswordSchemeSettings#ROOT_SCHEME}
   * @param entries the initial entries, parents first; clear-text passwords are hashed
   */
  public static void create(
      Instance instance,
      InitialConfig.Parameters parameters,
      String rootPassword,
      List<Entry> entries)
      throws ConfigException, LDAPException, IOException {
    if (Files.exists(instance.configFile())) {
      throw new ConfigException(
          instance.root() + " already holds an instance; remove it or choose another directory");
    }
    PasswordSchemeSettings settings =
        parameters.passwordScheme() == null
            ? PasswordSchemeSettings.defaults()
            : PasswordSchemeSettings.defaultsWith(parameters.passwordScheme());
    PasswordSchemes passwords = new PasswordSchemes(settings);
    PasswordSchemes rootScheme =
        new PasswordSchemes(
            PasswordSchemeSettings.defaultsWith(
                PasswordSchemeSettings.rootScheme(settings.defaultScheme())));
    String hash =
        new String(
            rootScheme.encode(rootPassword.getBytes(StandardCharsets.UTF_8)),
            StandardCharsets.UTF_8);
    InitialConfig.Parameters hashed = parameters.withRootPasswordHash(hash);
    makePrivate(instance.root());
    ConfigStore config = ConfigStore.create(instance.configFile(), InitialConfig.entries(hashed));
    config.save();
    Files.createDirectories(instance.logs());
    Files.createDirectories(instance.schemaDirectory());
    Identity creator = new Identity(parameters.rootUserDn(), true, Set.of());
    ServerConfig server = ServerConfig.read(config);
    try (Backends backends =
        Backends.open(
            server.backends(),
            instance,
            SchemaLoader.load(instance.schemaDirectory()),
            MemoryBudget.ofThisProcess(server.global().memoryBudgetBytes()))) {
      for (Entry entry : entries) {
        Entry prepared = entry.duplicate();
        PasswordValues.hash(prepared, passwords);
        OperationalAttributes.onAdd(prepared, creator);
        EntryContainer container = backends.containerFor(prepared.getParsedDN());
        if (container == null) {
          throw new LDAPException(
              com.unboundid.ldap.sdk.ResultCode.NO_SUCH_OBJECT,
              "no backend holds " + prepared.getDN());
        }
        container.add(prepared);
      }
    }
  }

  /**
   * Creates {@code directory} (and its parents) and leaves it readable by its owner only. A
   * directory someone else owns (a container volume) keeps its mode: what is created inside it is
   * still private, by the umask of the bin/ scripts and the mode of the configuration file.
   */
  private static void makePrivate(Path directory) throws IOException {
    Files.createDirectories(directory);
    if (Files.getFileStore(directory).supportsFileAttributeView(PosixFileAttributeView.class)) {
      try {
        Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwx------"));
      } catch (FileSystemException notOwner) {
        // not ours to change: see above
      }
    }
  }

  /** The parameters of a loopback test or quick-start instance. */
  public static InitialConfig.Parameters loopback(DN baseDn, int ldapPort, int ldapsPort) {
    return new InitialConfig.Parameters(
        baseDn,
        "127.0.0.1",
        ldapPort,
        ldapsPort,
        io.rockds.config.ConfigDns.parse("cn=Directory Manager"),
        null,
        false);
  }
}
