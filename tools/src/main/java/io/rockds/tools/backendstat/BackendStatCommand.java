package io.rockds.tools.backendstat;

import io.rockds.config.BackendConfig;
import io.rockds.storage.Backend;
import io.rockds.storage.EntryContainer;
import io.rockds.tools.InstanceStorage;
import io.rockds.tools.TextTable;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** What every backendstat subcommand shares: the instance, the output streams, a read-only open. */
abstract class BackendStatCommand implements Callable<Integer> {
  /** A step run against one open backend. */
  @FunctionalInterface
  interface BackendStep {
    void run(Backend backend) throws Exception;
  }

  /** A step run against one container of an open backend. */
  @FunctionalInterface
  interface ContainerStep {
    void run(EntryContainer container) throws Exception;
  }

  @ParentCommand BackendStat parent;

  @Spec CommandSpec spec;

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  /**
   * Prints a table as the user asked: aligned with its heading, or tab-separated ({@code
   * --script-friendly}).
   */
  void print(TextTable table) {
    table.print(out(), parent.scriptFriendly);
  }

  /** Prints a line of prose (a total, a note) unless {@code --script-friendly}. */
  void note(String line) {
    if (!parent.scriptFriendly) {
      out().println(line);
    }
  }

  InstanceStorage storage() throws Exception {
    return InstanceStorage.of(parent.instance());
  }

  /**
   * Opens {@code config} read-only, says on stderr which view that is, runs {@code step}, closes.
   */
  void withBackend(InstanceStorage storage, BackendConfig config, BackendStep step)
      throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    err.println(spec.qualifiedName() + ": " + config.id() + ": " + storage.describeReadOnlyView());
    err.flush();
    try (Backend backend = storage.openReadOnly(config)) {
      step.run(backend);
    }
    out().flush();
  }

  /**
   * Runs {@code step} on every container {@code selection} picks ({@code -n}, {@code -b}), each
   * backend opened as {@link #withBackend} opens it.
   */
  void forEachContainer(InstanceStorage storage, BackendSelection selection, ContainerStep step)
      throws Exception {
    for (BackendConfig config : selection.backends(storage)) {
      withBackend(
          storage,
          config,
          backend -> {
            for (EntryContainer container :
                InstanceStorage.containers(backend, selection.baseDn())) {
              step.run(container);
            }
          });
    }
  }
}
