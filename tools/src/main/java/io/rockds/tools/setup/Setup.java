package io.rockds.tools.setup;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.config.ConfigStore;
import io.rockds.config.InitialConfig;
import io.rockds.config.ReplicationConfig;
import io.rockds.layout.Instance;
import io.rockds.server.InstanceSetup;
import io.rockds.tools.InstanceOption;
import io.rockds.tools.ToolRunner;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bin/setup}: creates an instance non-interactively, with OpenDJ's option names so that
 * operators' scripts carry over. As OpenDJ's, it creates no known credentials: the root password
 * must be given, and sample users (password {@code password}) exist only with {@code --sampleData
 * N}.
 */
@Command(
    name = "setup",
    sortOptions = false,
    description =
        "Creates a RockDS instance: configuration and an embedded RocksDB backend userRoot holding the base"
            + " entry (sample users only with --sampleData). The instance directory is private to its owner.")
public final class Setup implements Callable<Integer> {
  static final String PASSWORD_VARIABLE = "ROCKDS_ROOT_PASSWORD";

  @Mixin InstanceOption instanceDir;

  @Option(
      names = {"-p", "--ldapPort"},
      description = "LDAP port (default: ${DEFAULT-VALUE}).")
  int ldapPort = 1389;

  @Option(
      names = {"-q", "--ldapsPort"},
      description = "LDAPS port; 0 for none (default: ${DEFAULT-VALUE}).")
  int ldapsPort = 1636;

  @Option(
      names = "--listenAddress",
      description = "Address to listen on (default: ${DEFAULT-VALUE}).")
  String listenAddress = "127.0.0.1";

  @Option(
      names = {"-b", "--baseDN"},
      description = "Base DN of the userRoot backend (default: ${DEFAULT-VALUE}).")
  String baseDn = "dc=example,dc=com";

  @Option(
      names = {"-D", "--rootUserDN"},
      description = "Root user DN (default: ${DEFAULT-VALUE}).")
  String rootUserDn = "cn=Directory Manager";

  @Option(
      names = {"-w", "--rootUserPassword"},
      description =
          "Root user password (default: $"
              + PASSWORD_VARIABLE
              + "; one of them or --rootUserPasswordFile is required). Stored hashed with PBKDF2-SHA256, or with"
              + " --passwordStorageScheme.")
  String rootUserPassword;

  @Option(
      names = {"-j", "--rootUserPasswordFile"},
      description = "File holding the root user password.")
  Path rootUserPasswordFile;

  @Option(
      names = {"-d", "--sampleData"},
      description =
          "Number of sample users to create, with ou=People, ou=Groups"
              + " and a group; their password is \"password\" (default: ${DEFAULT-VALUE}).")
  int sampleData = 0;

  @Option(
      names = {"-a", "--addBaseEntry"},
      description = "Create the base entry (the default unless --noEntries).")
  boolean addBaseEntry;

  @Option(
      names = "--httpPort",
      description =
          "Port of the HTTP endpoint serving /metrics (Prometheus) and /health; none by default.")
  int httpPort = -1;

  @Option(
      names = "--passwordStorageScheme",
      description =
          "Scheme hashing clear-text passwords, e.g. SSHA512 (default), PBKDF2-SHA256, BCRYPT, ARGON2.")
  String passwordStorageScheme;

  @Option(
      names = "--noEntries",
      description =
          "Create the backend empty, not even the base entry (to import-ldif data that holds it).")
  boolean noEntries;

  @Option(
      names = "--allowAnonymousRead",
      description =
          "Let anonymous clients read and search everything but passwords, as OpenLDAP and 389 DS ship.")
  boolean allowAnonymousRead;

  @Option(
      names = "--serverId",
      description = "This server's name in its replication group (with --replicationPort).")
  String serverId;

  @Option(
      names = "--replicationPort",
      description =
          "Port of this server's replication listener: makes it a member of a replication group,"
              + " created with no entries of its own (data enters through the replication log).")
  int replicationPort;

  @Option(
      names = "--replicationHost",
      description =
          "Address the other servers reach this one's replication port at (default: --listenAddress).")
  String replicationHost;

  @Option(
      names = "--bootstrapReplicationServer",
      paramLabel = "HOST:PORT",
      description =
          "A server of the replication group (repeat for each; this one is added): the servers"
              + " listed form the group at first start.")
  List<String> bootstrapReplicationServers = new java.util.ArrayList<>();

  @Option(
      names = "--joinReplicationGroup",
      description =
          "The group runs already: this server waits to be added (dsrepl add-server) and then"
              + " receives the data, instead of forming a new group with the bootstrap servers.")
  boolean joinReplicationGroup;

  @Option(names = "--quiet", description = "Print nothing on success.")
  boolean quiet;

  public static void main(String[] args) {
    System.exit(run(args));
  }

  public static int run(String... args) {
    return ToolRunner.run(new Setup(), args);
  }

  @Override
  public Integer call() throws Exception {
    Instance target = instanceDir.instance();
    DN base;
    DN rootDn;
    try {
      base = new DN(baseDn);
      rootDn = new DN(rootUserDn);
    } catch (LDAPException e) {
      System.err.println("setup: invalid DN: " + e.getExceptionMessage());
      return 2;
    }
    if (sampleData < 0) {
      System.err.println("setup: --sampleData: " + sampleData + " (expected: >= 0)");
      return 2;
    }
    if (noEntries && (addBaseEntry || sampleData > 0)) {
      System.err.println("setup: --noEntries excludes --addBaseEntry and --sampleData");
      return 2;
    }
    boolean replicated = replicationPort > 0;
    if (replicated && (serverId == null || serverId.isBlank())) {
      System.err.println("setup: --replicationPort needs --serverId");
      return 2;
    }
    if (joinReplicationGroup && !replicated) {
      System.err.println("setup: --joinReplicationGroup needs --replicationPort");
      return 2;
    }
    if (replicated && (addBaseEntry || sampleData > 0)) {
      System.err.println(
          "setup: a replicated server is created with no entries: data enters only through the"
              + " replication log, so add the base entry over LDAP once the group runs");
      return 2;
    }
    String rootPassword = rootPassword();
    if (rootPassword == null) {
      System.err.println(
          "setup: no root user password: give --rootUserPassword, --rootUserPasswordFile or $"
              + PASSWORD_VARIABLE);
      return 2;
    }
    List<Entry> entries =
        noEntries || replicated
            ? List.of()
            : sampleData > 0
                ? SampleData.entries(base, sampleData)
                : List.of(SampleData.suffix(base));
    if (passwordStorageScheme != null) {
      InitialConfig.schemeEntry(passwordStorageScheme);
    }
    InstanceSetup.create(
        target,
        new InitialConfig.Parameters(
            base,
            listenAddress,
            ldapPort,
            ldapsPort > 0 ? ldapsPort : -1,
            rootDn,
            null,
            allowAnonymousRead,
            httpPort,
            passwordStorageScheme),
        rootPassword,
        entries);
    if (replicated) {
      ConfigStore store = ConfigStore.load(target.configFile());
      store.put(
          new ReplicationConfig(
                  serverId,
                  replicationHost != null ? replicationHost : listenAddress,
                  replicationPort,
                  bootstrapReplicationServers,
                  ReplicationConfig.DEFAULT_WRITE_TIMEOUT,
                  ReplicationConfig.DEFAULT_ELECTION_TIMEOUT,
                  ReplicationConfig.DEFAULT_SNAPSHOT_INTERVAL,
                  ReplicationConfig.DEFAULT_LOG_SEGMENT_BYTES,
                  joinReplicationGroup)
              .toEntry());
      store.save();
    }
    int created = entries.size();
    if (!quiet) {
      System.out.println(
          "Created instance "
              + target.root()
              + ": "
              + base
              + " with "
              + created
              + " entries, root user \""
              + rootDn
              + "\", LDAP port "
              + ldapPort
              + (ldapsPort > 0 ? ", LDAPS port " + ldapsPort : "")
              + ".");
      System.out.println("Start it with: bin/start-ds --instance " + instanceDir.directory());
    }
    return 0;
  }

  private String rootPassword() throws java.io.IOException {
    if (rootUserPassword != null) {
      return rootUserPassword;
    }
    if (rootUserPasswordFile != null) {
      return Files.readString(rootUserPasswordFile, StandardCharsets.UTF_8).strip();
    }
    String fromEnv = System.getenv(PASSWORD_VARIABLE);
    return fromEnv != null && !fromEnv.isEmpty() ? fromEnv : null;
  }
}
