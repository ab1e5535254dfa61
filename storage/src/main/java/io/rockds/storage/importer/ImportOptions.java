package io.rockds.storage.importer;

import io.rockds.storage.EntryFilter;
import java.nio.file.Path;
import java.util.function.Consumer;
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
    return with(draft -> draft.clearBackend = clear);
  }

  public ImportOptions withFilter(EntryFilter newFilter) {
    return with(draft -> draft.filter = newFilter);
  }

  public ImportOptions withTransformer(EntryTransformer t) {
    return with(draft -> draft.transformer = t);
  }

  public ImportOptions withThreads(int n) {
    return with(draft -> draft.threads = n);
  }

  public ImportOptions withRejects(Path file) {
    return with(draft -> draft.rejects = file);
  }

  public ImportOptions withSkips(Path file) {
    return with(draft -> draft.skips = file);
  }

  public ImportOptions withProgress(LongConsumer p) {
    return with(draft -> draft.progress = p);
  }

  private ImportOptions with(Consumer<Draft> change) {
    Draft draft = new Draft(this);
    change.accept(draft);
    return draft.options();
  }

  /** These options being changed by a {@code with...} method: the other fields kept. */
  private static final class Draft {
    private boolean clearBackend;
    private EntryFilter filter;
    private EntryTransformer transformer;
    private int threads;
    private Path rejects;
    private Path skips;
    private final Path workDirectory;
    private LongConsumer progress;

    Draft(ImportOptions from) {
      clearBackend = from.clearBackend;
      filter = from.filter;
      transformer = from.transformer;
      threads = from.threads;
      rejects = from.rejects;
      skips = from.skips;
      workDirectory = from.workDirectory;
      progress = from.progress;
    }

    ImportOptions options() {
      return new ImportOptions(
          clearBackend, filter, transformer, threads, rejects, skips, workDirectory, progress);
    }
  }
}
