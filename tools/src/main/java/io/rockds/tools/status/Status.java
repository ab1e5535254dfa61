package io.rockds.tools.status;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPURL;
import io.rockds.config.BackendConfig;
import io.rockds.config.ConnectionHandlerConfig;
import io.rockds.storage.AttributeIndex;
import io.rockds.storage.Backend;
import io.rockds.storage.EntryContainer;
import io.rockds.tools.InstanceOption;
import io.rockds.tools.InstanceStorage;
import io.rockds.tools.LdapConnectionOptions;
import io.rockds.tools.RunningServer;
import io.rockds.tools.TextTable;
import io.rockds.tools.ToolRunner;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/status}: the state of an instance. What the files say works stopped or running:
 * listeners (configured, and bound when running), backends with entry counts and index trust (from
 * a read-only view of each database), uptime. When the server runs, connections and operations per
 * second come from {@code cn=monitor} over LDAP, sampled twice (through the instance's own LDAP
 * listener unless {@code -h}/{@code -p} say otherwise). With {@code --script-friendly} it prints
 * one {@code name<TAB>value} line per fact instead.
 */
@Command(
    name = "status",
    sortOptions = false,
    description =
        "Shows the server state, listeners, backends with entry counts and index trust, uptime, and when"
            + " it runs, connections and operations per second (from cn=monitor).")
public final class Status implements Callable<Integer> {
  @Mixin InstanceOption instanceDir;

  @Mixin LdapConnectionOptions connection = new LdapConnectionOptions();

  @Option(
      names = {"-s", "--script-friendly"},
      description =
          "One \"name<TAB>value\" line per fact, for scripts (see the README for the names).")
  boolean scriptFriendly;

  @Option(
      names = "--sampleSeconds",
      description = "Seconds between the two cn=monitor reads (default: ${DEFAULT-VALUE}).")
  int sampleSeconds = 1;

  @Spec CommandSpec spec;

  public static void main(String[] args) {
    System.exit(ToolRunner.run(new Status(), args));
  }

  @Override
  public Integer call() throws Exception {
    InstanceStorage storage = InstanceStorage.of(instanceDir.instance());
    StatusReport report = new StatusReport(spec.commandLine().getOut(), scriptFriendly);
    Optional<RunningServer> server = RunningServer.of(storage.instance());
    report.fact("instance", "Instance:  ", storage.instance().root());
    report.fact(
        "server.state",
        "Server:    ",
        server
            .map(
                s ->
                    "running"
                        + (s.pid() > 0 ? " (pid " + s.pid() + ")" : "")
                        + ", up "
                        + uptime(s.since())
                        + " since "
                        + s.since())
            .orElse("stopped"),
        server.isPresent() ? "running" : "stopped");
    server.ifPresent(
        s -> {
          report.scriptOnly("server.pid", s.pid());
          report.scriptOnly("server.start-time", s.since());
        });
    report.blank();
    printListeners(report, storage, server);
    report.blank();
    printBackends(report, storage);
    report.blank();
    if (server.isPresent()) {
      live(report, server.get());
    } else {
      report.prose("Connections, operations per second: the server is stopped.");
    }
    report.flush();
    return 0;
  }

  private static void printListeners(
      StatusReport report, InstanceStorage storage, Optional<RunningServer> server) {
    TextTable table =
        new TextTable("Listener", "Protocol", "Address", "Configured Port", "Enabled");
    for (ConnectionHandlerConfig h : storage.config().connectionHandlers()) {
      String protocol = h.useSsl() ? "LDAPS" : h.allowStartTls() ? "LDAP (StartTLS)" : "LDAP";
      table.row(h.name(), protocol, h.listenAddress(), h.listenPort(), h.enabled());
      String key = "listener." + h.name();
      report.scriptOnly(key + ".protocol", protocol);
      report.scriptOnly(key + ".address", h.listenAddress());
      report.scriptOnly(key + ".port", h.listenPort());
      report.scriptOnly(key + ".enabled", h.enabled());
    }
    report.table(table);
    server.ifPresent(
        s -> report.fact("listening", "Listening on: ", String.join(" ", s.listeners())));
  }

  private static void printBackends(StatusReport report, InstanceStorage storage) throws Exception {
    TextTable table = new TextTable("Backend ID", "Base DN", "Entries", "Indexes", "Untrusted");
    List<String> untrusted = new ArrayList<>();
    List<String> tighten = new ArrayList<>();
    for (BackendConfig config : storage.config().backends()) {
      if (!config.enabled()
          || !Files.exists(storage.instance().resolve(config.dbDirectory()).resolve("CURRENT"))) {
        for (DN base : config.baseDns()) {
          String state = config.enabled() ? "no database" : "disabled";
          table.row(config.id(), base, state, "-", "-");
          report.scriptOnly("backend." + config.id() + "." + base + ".state", state);
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
            } else if (index.rebuildWouldTighten()) {
              tighten.add(
                  index.rawName()
                      + " (built with "
                      + index.builtWithLimit()
                      + ", now "
                      + index.entryLimit().limit()
                      + ")");
            }
          }
          table.row(
              config.id(),
              container.baseDn(),
              container.entryCount(),
              container.indexes().size(),
              bad);
          String key = "backend." + config.id() + "." + container.baseDn();
          report.scriptOnly(key + ".entries", container.entryCount());
          report.scriptOnly(key + ".indexes", container.indexes().size());
          report.scriptOnly(key + ".untrusted-indexes", bad);
        }
      }
    }
    report.table(table);
    report.fact(
        "indexes.untrusted",
        "Index trust: ",
        untrusted.isEmpty()
            ? "every index is trusted."
            : "untrusted (searches ignore them; run rebuild-index --rebuildDegraded): "
                + String.join(" ", untrusted),
        String.join(" ", untrusted));
    report.fact(
        "indexes.rebuild-would-tighten",
        "Index limits: ",
        tighten.isEmpty()
            ? "every index is built with the index-entry-limit in force."
            : "changed since built; the indexes answer correctly, a rebuild (rebuild-index --rebuildDegraded) would"
                + " tighten them: "
                + String.join(" ", tighten),
        String.join(" ", tighten.stream().map(t -> t.substring(0, t.indexOf(' '))).toList()));
  }

  /** Connections and operations per second from cn=monitor, or why they are not available. */
  private void live(StatusReport report, RunningServer server) {
    String url =
        server.listeners().stream().filter(l -> l.startsWith("ldap://")).findFirst().orElse(null);
    if (url == null && !connection.namesServer()) {
      report.prose(
          "Connections, operations per second: not available (no plain LDAP listener to read cn=monitor"
              + " from; give -p with -Z or -q).");
      return;
    }
    try {
      if (url != null) {
        LDAPURL ldapUrl = new LDAPURL(url);
        connection.defaultTo(ldapUrl.getHost(), ldapUrl.getPort());
      }
      try (LDAPConnection ldap = connection.connect()) {
        String password = connection.password();
        if (password != null) {
          ldap.bind(connection.bindDn(), password);
        }
        MonitorSample first = MonitorSample.read(ldap);
        if (first == null) {
          report.prose(
              "Connections, operations per second: not available: the server publishes no cn=monitor yet.");
          return;
        }
        Thread.sleep(Duration.ofSeconds(sampleSeconds).toMillis());
        MonitorSample second = MonitorSample.read(ldap);
        double rate = second.operationsPerSecondSince(first, 1);
        report.prose(
            String.format(
                Locale.ROOT,
                "Connections: %d current, %d since start. Operations: %.1f per second"
                    + " (over %d s). Unindexed searches since start: %d.",
                second.currentConnections(),
                second.totalConnections(),
                rate,
                sampleSeconds,
                second.unindexedSearches()));
        report.scriptOnly("connections.current", second.currentConnections());
        report.scriptOnly("connections.total", second.totalConnections());
        report.scriptOnly("operations.per-second", String.format(Locale.ROOT, "%.1f", rate));
        report.scriptOnly("searches.unindexed", second.unindexedSearches());
        for (String line : CacheReport.read(ldap)) {
          report.prose(line);
        }
      }
    } catch (LDAPException e) {
      report.prose(
          "Connections, operations per second: not available: reading cn=monitor from "
              + connection.host()
              + ":"
              + connection.port()
              + " failed: "
              + e.getExceptionMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      report.prose("Connections, operations per second: interrupted.");
    } catch (java.io.IOException | java.security.GeneralSecurityException e) {
      report.prose("Connections, operations per second: not available: " + e.getMessage());
    }
  }

  private static String uptime(Instant since) {
    Duration up = Duration.between(since, Instant.now());
    return String.format(
        Locale.ROOT,
        "%dd %02dh %02dm %02ds",
        up.toDays(),
        up.toHoursPart(),
        up.toMinutesPart(),
        up.toSecondsPart());
  }
}
