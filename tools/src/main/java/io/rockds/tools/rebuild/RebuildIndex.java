package io.rockds.tools.rebuild;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPConnection;
import io.rockds.storage.AttributeIndex;
import io.rockds.storage.Backend;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.maintenance.IndexRebuilder;
import io.rockds.tools.InstanceOption;
import io.rockds.tools.InstanceStorage;
import io.rockds.tools.LdapConnectionOptions;
import io.rockds.tools.RunningServer;
import io.rockds.tools.ToolRunner;
import io.rockds.tools.progress.Progress;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/rebuild-index}: rebuilds indexes of a base DN from its entries. Online (with the
 * connection options, {@link LdapConnectionOptions}) it schedules a rebuild task in the running
 * server and waits for it ({@link OnlineRebuild}); offline it opens the stopped server's database
 * exclusively. Either way the indexes are untrusted while they are rebuilt and trusted, with exact
 * over-limit counts, once done.
 */
@Command(
    name = "rebuild-index",
    sortOptions = false,
    description =
        "Rebuilds indexes from the entries: named ones, all, or the degraded ones (untrusted, or holding"
            + " over-limit keys back within the limit). Online through a running server (-h, -p, -D, -w:"
            + " a root DN or a user with the ldif-import privilege; it keeps serving meanwhile), or offline on a stopped server's instance.")
public final class RebuildIndex implements Callable<Integer> {
  /** Which indexes: exactly one of the three ways. */
  static final class Selection {
    @Option(
        names = {"-i", "--index"},
        paramLabel = "<index>",
        required = true,
        description =
            "Index to rebuild: an attribute (all its indexes) or a tree name such as sn.caseIgnoreMatch."
                + " Repeatable.")
    List<String> indexes = new ArrayList<>();

    @Option(names = "--rebuildAll", required = true, description = "Rebuild every index.")
    boolean all;

    @Option(
        names = "--rebuildDegraded",
        required = true,
        description = "Rebuild untrusted indexes and those with recoverable over-limit keys.")
    boolean degraded;
  }

  @Mixin InstanceOption instanceDir;

  @Option(
      names = {"-b", "--baseDN"},
      required = true,
      paramLabel = "<baseDN>",
      description = "Base DN whose indexes to rebuild.")
  String baseDn;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Selection selection;

  @Option(
      names = {"-Q", "--quiet"},
      description = "No progress, no summary.")
  boolean quiet;

  @Mixin LdapConnectionOptions connection = new LdapConnectionOptions();

  @Spec CommandSpec spec;

  public static void main(String[] args) {
    System.exit(ToolRunner.run(new RebuildIndex(), args));
  }

  @Override
  public Integer call() throws Exception {
    DN base = new DN(baseDn);
    if (connection.namesServer()) {
      return online(base);
    }
    InstanceStorage storage = InstanceStorage.of(instanceDir.instance());
    if (RunningServer.of(storage.instance()).isPresent()) {
      throw new IllegalStateException(
          "the server of "
              + storage.instance().root()
              + " is running: rebuild through"
              + " it with -p <ldapPort> -w <password> (or stop it with bin/stop-ds)");
    }
    PrintWriter out = spec.commandLine().getOut();
    try (Backend backend = storage.openExclusive(storage.backendHolding(base))) {
      EntryContainer container = InstanceStorage.containers(backend, base).get(0);
      IndexRebuilder rebuilder = new IndexRebuilder(container);
      AtomicLong reported = new AtomicLong();
      List<AttributeIndex> rebuilt;
      try (Progress progress = Progress.start("rebuild-index", container.entryCount(), quiet)) {
        java.util.function.LongConsumer onProgress =
            done -> progress.step(done - reported.getAndSet(done));
        if (selection.all) {
          rebuilt = rebuilder.rebuildAll(onProgress);
        } else if (selection.degraded) {
          rebuilt = rebuilder.rebuildDegraded(onProgress);
        } else {
          rebuilt = rebuilder.rebuild(selection.indexes, onProgress);
        }
      }
      List<String> names = new ArrayList<>(rebuilt.stream().map(AttributeIndex::name).toList());
      names.addAll(rebuilder.rebuildVlv(selection.indexes, selection.all, selection.degraded));
      if (!quiet) {
        out.println(
            names.isEmpty()
                ? "No index of " + base + " needed a rebuild."
                : "Rebuilt "
                    + names.size()
                    + " indexes of "
                    + base
                    + ": "
                    + String.join(", ", names));
        out.flush();
      }
      return 0;
    }
  }

  private int online(DN base) throws Exception {
    List<String> indexes =
        selection.all
            ? List.of("rebuildAll")
            : selection.degraded ? List.of("rebuildDegraded") : selection.indexes;
    PrintWriter out = spec.commandLine().getOut();
    try (LDAPConnection ldap = connection.connectAndBind(false)) {
      String state = new OnlineRebuild(ldap, out, quiet).run(base, indexes);
      if (!"COMPLETED_SUCCESSFULLY".equals(state)) {
        throw new IllegalStateException(
            "the rebuild task ended " + state + " (its log messages are above)");
      }
      return 0;
    }
  }
}
