package io.rockds.tools.advisor;

import io.rockds.tools.InstanceCommand;
import io.rockds.tools.InstanceStorage;
import java.io.BufferedReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code backendstat suggest-indexes}: the index advisor. Reads access logs (combined format), then
 * prints each suggestion with its evidence and the dsconfig and rebuild-index commands that apply
 * it.
 */
@Command(
    name = "suggest-indexes",
    description =
        "Reads the access log and the index records its searches hit, and suggests indexes to add and"
            + " index-entry-limit changes, with evidence and ready-to-run commands.")
public final class SuggestIndexes implements Callable<Integer> {
  @ParentCommand InstanceCommand parent;

  @Spec CommandSpec spec;

  @Option(
      names = {"-f", "--accessLog"},
      paramLabel = "<file>",
      description = "Access log files to read (default: <instance>/logs/access).")
  List<Path> accessLogs;

  @Option(
      names = "--minSearches",
      paramLabel = "<n>",
      description = "Searches a suggestion needs as evidence (default: ${DEFAULT-VALUE}).")
  int minSearches = 10;

  @Override
  public Integer call() throws Exception {
    InstanceStorage storage = InstanceStorage.of(parent.instance());
    List<Path> logs =
        accessLogs != null ? accessLogs : List.of(storage.instance().logs().resolve("access"));
    IndexAdvisor advisor = new IndexAdvisor(storage, minSearches);
    for (Path log : logs) {
      try (BufferedReader reader = Files.newBufferedReader(log, StandardCharsets.UTF_8)) {
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
          SearchRecord.parse(line).ifPresent(advisor::add);
        }
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println(
        "Read "
            + advisor.searches()
            + " searches ("
            + advisor.unindexedSearches()
            + " unindexed) from "
            + String.join(", ", logs.stream().map(Path::toString).toList())
            + ".");
    List<Suggestion> suggestions = advisor.suggestions();
    if (suggestions.isEmpty()) {
      out.println(
          "No suggestion: no filter or index key has at least "
              + minSearches
              + " searches as evidence.");
    }
    int n = 0;
    for (Suggestion s : suggestions) {
      out.println();
      out.println(++n + ". " + s.title());
      out.println("   Evidence: " + s.evidence().describe());
      for (String command : s.commands()) {
        out.println("   " + command);
      }
    }
    out.flush();
    return 0;
  }
}
