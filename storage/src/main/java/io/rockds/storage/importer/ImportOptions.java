package io.rockds.storage.importer;

import io.rockds.storage.EntryFilter;
import java.nio.file.Path;
import java.util.function.LongConsumer;

/**
 * How to run one import.
 *
 * @param clearBackend empty every base DN of the backend, not only those the import loads
 * @param filter include / exclude branches and attributes; entries it drops are "skipped"
 * @param transformer applied to each kept entry before storing it
 * @param threads parsing threads (at least 1), e.g. the number of cores
 * @param rejects where rejected records go with line number and reason, or null
 * @param skips where skipped records go with the reason, or null
 * @param workDirectory temporary SST files (best on the database volume)
 * @param progress receives the number of records read, now and then
 */
public record ImportOptions(
    boolean clearBackend,
    EntryFilter filter,
    EntryTransformer transformer,
    int threads,
    Path rejects,
    Path skips,
    Path workDirectory,
    LongConsumer progress) {

  public ImportOptions {
    if (threads < 1) {
      throw new IllegalArgumentException("threads: " + threads + " (expected: >= 1)");
    }
  }

  /** Defaults: all entries, no transformation, one thread per core, no rejects or skips files. */
  public static ImportOptions defaults(Path workDirectory) {
    return new ImportOptions(
        false,
        EntryFilter.ALL,
        EntryTransformer.NONE,
        Runtime.getRuntime().availableProcessors(),
        null,
        null,
        workDirectory,
        n -> {});
  }

  public ImportOptions withClearBackend(boolean clear) {
    return new ImportOptions(
        clear, filter, transformer, threads, rejects, skips, workDirectory, progress);
  }

  public ImportOptions withFilter(EntryFilter newFilter) {
    return new ImportOptions(
        clearBackend, newFilter, transformer, threads, rejects, skips, workDirectory, progress);
  }

  public ImportOptions withTransformer(EntryTransformer t) {
    return new ImportOptions(
        clearBackend, filter, t, threads, rejects, skips, workDirectory, progress);
  }

  public ImportOptions withThreads(int n) {
    return new ImportOptions(
        clearBackend, filter, transformer, n, rejects, skips, workDirectory, progress);
  }

  public ImportOptions withRejects(Path file) {
    return new ImportOptions(
        clearBackend, filter, transformer, threads, file, skips, workDirectory, progress);
  }

  public ImportOptions withSkips(Path file) {
    return new ImportOptions(
        clearBackend, filter, transformer, threads, rejects, file, workDirectory, progress);
  }

  public ImportOptions withProgress(LongConsumer p) {
    return new ImportOptions(
        clearBackend, filter, transformer, threads, rejects, skips, workDirectory, p);
  }
}
