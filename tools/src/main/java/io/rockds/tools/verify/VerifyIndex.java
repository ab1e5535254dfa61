package io.rockds.tools.verify;

import com.unboundid.ldap.sdk.DN;
import io.rockds.config.ConfigException;
import io.rockds.storage.AttributeIndex;
import io.rockds.storage.Backend;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.VlvIndex;
import io.rockds.storage.maintenance.IndexVerifier;
import io.rockds.storage.maintenance.Mismatch;
import io.rockds.storage.maintenance.VerifyReport;
import io.rockds.tools.InstanceOption;
import io.rockds.tools.InstanceStorage;
import io.rockds.tools.ToolRunner;
import io.rockds.tools.progress.Progress;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/verify-index}: checks the indexes of a base DN (and, when every index is checked, the
 * entry trees) against {@code id2entry}, prints every inconsistency and exits 1 if there is any. It
 * reads a consistent read-only view, so it runs beside a live server too.
 */
@Command(
    name = "verify-index",
    sortOptions = false,
    description =
        "Verifies indexes against the entries and reports every inconsistency; exits 1 if any.")
public final class VerifyIndex implements Callable<Integer> {
  /** Exit code when an inconsistency is found. */
  public static final int INCONSISTENT = 1;

  @Mixin InstanceOption instanceDir;

  @Option(
      names = {"-b", "--baseDN"},
      required = true,
      paramLabel = "<baseDN>",
      description = "Base DN to verify.")
  String baseDn;

  @Option(
      names = {"-i", "--index"},
      paramLabel = "<index>",
      description =
          "Index to verify: an attribute (all its indexes) or a tree name such as sn.caseIgnoreMatch."
              + " Repeatable. Default: every index, plus dn2id, id2childrencount and the entry count.")
  List<String> indexes = new ArrayList<>();

  @Option(
      names = "--clean",
      description =
          "Verify a single index (one --index) record by record, as OpenDJ's"
              + " --clean; the report is the same, both directions are always checked.")
  boolean clean;

  @Option(
      names = {"-Q", "--quiet"},
      description = "No progress.")
  boolean quiet;

  @Spec CommandSpec spec;

  public static void main(String[] args) {
    System.exit(ToolRunner.run(new VerifyIndex(), args));
  }

  @Override
  public Integer call() throws Exception {
    if (clean && indexes.size() != 1) {
      throw new IllegalArgumentException(
          "--clean needs exactly one --index (got " + indexes.size() + ")");
    }
    InstanceStorage storage = InstanceStorage.of(instanceDir.instance());
    DN base = new DN(baseDn);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    err.println("verify-index: " + storage.describeReadOnlyView());
    err.flush();
    try (Backend backend = storage.openReadOnly(storage.backendHolding(base))) {
      EntryContainer container = InstanceStorage.containers(backend, base).get(0);
      VerifyReport report;
      try (Progress progress = Progress.start("verify-index", container.entryCount(), quiet)) {
        AtomicLong reported = new AtomicLong();
        IndexVerifier verifier =
            new IndexVerifier(container, read -> progress.step(read - reported.getAndSet(read)));
        List<AttributeIndex> attributeIndexes = resolve(container);
        report =
            indexes.isEmpty() ? verifier.verifyAll() : verifier.verifyIndexes(attributeIndexes);
      }
      int vlvProblems = 0;
      for (VlvIndex vlv : vlvIndexes(container)) {
        for (String problem : container.verifyVlvIndex(vlv)) {
          out.println(vlv.name() + ": " + problem);
          vlvProblems++;
        }
      }
      for (Mismatch m : report.mismatches()) {
        out.println(describe(m));
      }
      for (String key : report.recoverableKeys()) {
        out.println(
            "Recoverable over-limit key (consistent; rebuild-index --rebuildDegraded lists its IDs again): "
                + key);
      }
      out.println(
          "Checked "
              + report.entriesChecked()
              + " entries and "
              + report.recordsChecked()
              + " records of "
              + base
              + ": "
              + (report.isClean() && vlvProblems == 0
                  ? "no inconsistency"
                  : report.mismatches().size() + vlvProblems + " inconsistencies")
              + ".");
      out.flush();
      return report.isClean() && vlvProblems == 0 ? 0 : INCONSISTENT;
    }
  }

  static String describe(Mismatch m) {
    return m.tree()
        + " ["
        + m.key()
        + "]"
        + (m.id() >= 0 ? " entry ID " + m.id() : "")
        + ": "
        + m.kind()
        + ": "
        + m.detail();
  }

  /**
   * The indexes named by {@code --index}: tree names, or attributes meaning all of their indexes.
   */
  private List<AttributeIndex> resolve(EntryContainer container) throws ConfigException {
    List<AttributeIndex> selected = new ArrayList<>();
    for (String name : indexes) {
      if (container.vlvIndexNamed(vlvName(name)) != null) {
        continue;
      }
      AttributeIndex byTree = container.indexNamed(name);
      List<AttributeIndex> matches =
          byTree != null
              ? List.of(byTree)
              : container.indexes().stream()
                  .filter(i -> i.attribute().equalsIgnoreCase(name))
                  .toList();
      if (matches.isEmpty()) {
        throw new ConfigException(
            "--index "
                + name
                + ": no such index under "
                + container.baseDn()
                + " (backendstat list-indexes lists them)");
      }
      matches.stream().filter(i -> !selected.contains(i)).forEach(selected::add);
    }
    return selected;
  }

  /** The VLV indexes to verify: all of them by default, else those named {@code vlv.<name>}. */
  private List<VlvIndex> vlvIndexes(EntryContainer container) {
    if (indexes.isEmpty()) {
      return container.vlvIndexes();
    }
    List<VlvIndex> named = new ArrayList<>();
    for (String name : indexes) {
      VlvIndex vlv = container.vlvIndexNamed(vlvName(name));
      if (vlv != null) {
        named.add(vlv);
      }
    }
    return named;
  }

  private static String vlvName(String indexName) {
    return indexName.regionMatches(true, 0, "vlv.", 0, 4) ? indexName.substring(4) : indexName;
  }
}
