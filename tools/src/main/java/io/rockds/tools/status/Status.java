package io.rockds.tools.status;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPURL;
import io.rockds.config.BackendConfig;
import io.rockds.config.ConnectionHandlerConfig;
import io.rockds.server.Instance;
import io.rockds.storage.AttributeIndex;
import io.rockds.storage.Backend;
import io.rockds.storage.EntryContainer;
import io.rockds.tools.InstanceStorage;
import io.rockds.tools.RunningServer;
import io.rockds.tools.TextTable;
import io.rockds.tools.ToolRunner;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/status}: the state of an instance. What the files say works stopped or running:
 * listeners (configured, and bound when running), backends with entry counts and index trust
 * (from a read-only view of each database), uptime. When the server runs, connections and
 * operations per second come from {@code cn=monitor} over LDAP, sampled twice.
 */
@Command(name = "status", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Shows the server state, listeners, backends with entry counts and index trust, uptime, and when"
        + " it runs, connections and operations per second (from cn=monitor).")
public final class Status implements Callable<Integer> {
  @Option(names = "--instance", description = "Instance directory (default: ${DEFAULT-VALUE}).")
  Path instance = Path.of("instance");

  @Option(names = {"-D", "--bindDN"}, description = "DN to read cn=monitor as (default: ${DEFAULT-VALUE}).")
  String bindDn = "cn=Directory Manager";

  @Option(names = {"-w", "--bindPassword"}, description = "Its password (default: $ROCKDS_ROOT_PASSWORD).")
  String bindPassword;

  @Option(names = {"-j", "--bindPasswordFile"}, description = "File holding the password.")
  Path bindPasswordFile;

  @Option(names = "--sampleSeconds", description = "Seconds between the two cn=monitor reads (default: ${DEFAULT-VALUE}).")
  int sampleSeconds = 1;

  @Spec
  CommandSpec spec;

  public static void main(String[] args) {
    System.exit(ToolRunner.run(new Status(), args));
  }

  @Override
  public Integer call() throws Exception {
    InstanceStorage storage = InstanceStorage.of(new Instance(instance));
    PrintWriter out = spec.commandLine().getOut();
    Optional<RunningServer> server = RunningServer.of(storage.instance());
    out.println("Instance:  " + storage.instance().root());
    out.println("Server:    " + server.map(s -> "running" + (s.pid() > 0 ? " (pid " + s.pid() + ")" : "")
        + ", up " + uptime(s.since()) + " since " + s.since()).orElse("stopped"));
    out.println();
    printListeners(out, storage, server);
    out.println();
    printBackends(out, storage);
    out.println();
    out.println(server.isPresent() ? live(server.get()) : "Connections, operations per second: the server is stopped.");
    out.flush();
    return 0;
  }

  private static void printListeners(PrintWriter out, InstanceStorage storage, Optional<RunningServer> server) {
    TextTable table = new TextTable("Listener", "Protocol", "Address", "Configured Port", "Enabled");
    for (ConnectionHandlerConfig h : storage.config().connectionHandlers()) {
      table.row(h.name(), h.useSsl() ? "LDAPS" : h.allowStartTls() ? "LDAP (StartTLS)" : "LDAP", h.listenAddress(),
          h.listenPort(), h.enabled());
    }
    table.print(out);
    server.ifPresent(s -> out.println("Listening on: " + String.join(" ", s.listeners())));
  }

  private static void printBackends(PrintWriter out, InstanceStorage storage) throws Exception {
    TextTable table = new TextTable("Backend ID", "Base DN", "Entries", "Indexes", "Untrusted");
    List<String> untrusted = new ArrayList<>();
    for (BackendConfig config : storage.config().backends()) {
      if (!config.enabled() || !Files.exists(storage.instance().resolve(config.dbDirectory()).resolve("CURRENT"))) {
        for (DN base : config.baseDns()) {
          table.row(config.id(), base, config.enabled() ? "no database" : "disabled", "-", "-");
        }
        continue;
      }
      try (Backend backend = storage.openReadOnly(config)) {
        for (EntryContainer container : backend.containers()) {
          long bad = 0;
          for (AttributeIndex index : container.indexes()) {
            if (!index.isTrusted()) {
              bad++;
              untrusted.add(index.rawName());
            }
          }
          table.row(config.id(), container.baseDn(), container.entryCount(), container.indexes().size(), bad);
        }
      }
    }
    table.print(out);
    out.println(untrusted.isEmpty() ? "Index trust: every index is trusted."
        : "Index trust: untrusted (searches ignore them; run rebuild-index --rebuildDegraded): "
            + String.join(" ", untrusted));
  }

  /** Connections and operations per second from cn=monitor, or why they are not available. */
  private String live(RunningServer server) {
    String url = server.listeners().stream().filter(l -> l.startsWith("ldap://")).findFirst().orElse(null);
    if (url == null) {
      return "Connections, operations per second: not available (no plain LDAP listener to read cn=monitor from).";
    }
    try {
      LDAPURL ldapUrl = new LDAPURL(url);
      try (LDAPConnection connection = new LDAPConnection(ldapUrl.getHost(), ldapUrl.getPort())) {
        String password = password();
        if (password != null) {
          connection.bind(bindDn, password);
        }
        MonitorSample first = MonitorSample.read(connection);
        if (first == null) {
          return "Connections, operations per second: not available: the server publishes no cn=monitor yet.";
        }
        Thread.sleep(Duration.ofSeconds(sampleSeconds).toMillis());
        MonitorSample second = MonitorSample.read(connection);
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "Connections: %d current, %d since start. Operations: %.1f per second"
            + " (over %d s). Unindexed searches since start: %d.", second.currentConnections(),
            second.totalConnections(), second.operationsPerSecondSince(first, 1), sampleSeconds,
            second.unindexedSearches()));
        lines.addAll(CacheReport.read(connection));
        return String.join(System.lineSeparator(), lines);
      }
    } catch (LDAPException e) {
      return "Connections, operations per second: not available: reading cn=monitor from " + url + " failed: "
          + e.getExceptionMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "Connections, operations per second: interrupted.";
    } catch (java.io.IOException e) {
      return "Connections, operations per second: not available: " + e.getMessage();
    }
  }

  private String password() throws java.io.IOException {
    if (bindPassword != null) {
      return bindPassword;
    }
    if (bindPasswordFile != null) {
      return Files.readString(bindPasswordFile, StandardCharsets.UTF_8).strip();
    }
    String fromEnv = System.getenv("ROCKDS_ROOT_PASSWORD");
    return fromEnv == null || fromEnv.isEmpty() ? null : fromEnv;
  }

  private static String uptime(Instant since) {
    Duration up = Duration.between(since, Instant.now());
    return String.format(Locale.ROOT, "%dd %02dh %02dm %02ds", up.toDays(), up.toHoursPart(), up.toMinutesPart(),
        up.toSecondsPart());
  }
}
