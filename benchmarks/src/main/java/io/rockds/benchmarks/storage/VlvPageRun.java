package io.rockds.benchmarks.storage;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.storage.Backend;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.VlvIndex;
import io.rockds.storage.VlvSpec;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Does a VLV page cost the same at a million entries as at ten thousand? Bulk-loads each size of
 * OID-template users, builds a VLV index over ou=People sorted by {@code +sn +uid} (rebuild), then
 * reads {@code pages} pages of 20 entries (the IDs from the index, then each entry) at offsets near
 * the start, the middle and the end, and prints this thread's CPU microseconds per page, which a
 * busy machine distorts far less than wall-clock time.
 *
 * <pre>
 *   ./mvnw -B -o -q -pl benchmarks -am package -DskipTests
 *   java -cp benchmarks/target/benchmarks.jar io.rockds.benchmarks.storage.VlvPageRun 10000 1000000 [pages]
 * </pre>
 */
public final class VlvPageRun {
  private static final int PAGE = 20;

  private VlvPageRun() {}

  public static void main(String[] args) throws Exception {
    int pages = args.length > 2 ? Integer.parseInt(args[2]) : 2000;
    for (int i = 0; i < Math.min(2, args.length); i++) {
      measure(Long.parseLong(args[i]), pages);
    }
    if (args.length == 0) {
      measure(10_000, pages);
      measure(1_000_000, pages);
    }
  }

  private static void measure(long size, int pages) throws Exception {
    Path dir = Files.createTempDirectory("rockds-vlv-run-");
    try {
      ImportRun.load(dir.resolve("db"), size, Runtime.getRuntime().availableProcessors());
      try (Backend backend = StorageRuns.open(dir.resolve("db"), false)) {
        DN people = new DN("ou=People," + OidTemplate.SUFFIX);
        EntryContainer c = backend.containerFor(people);
        VlvIndex index =
            backend.addVlvIndex(
                new VlvSpec(
                    "byName",
                    people,
                    SearchScope.ONE,
                    Filter.create("(objectClass=person)"),
                    VlvSpec.parseSortOrder("+sn +uid")));
        long start = System.nanoTime();
        c.rebuildVlvIndex(index);
        System.out.printf(
            "%,d entries: VLV index of %,d entries in %,d blocks built in %.1f s%n",
            size, index.size(), index.blockCount(), (System.nanoTime() - start) / 1e9);
        int total = index.size();
        int[] offsets = {10, total / 2, total - PAGE - 10};
        String[] names = {"start", "middle", "end"};
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        readPages(c, index, offsets[1], pages / 4); // warm-up
        for (int k = 0; k < offsets.length; k++) {
          long before = cpu.getCurrentThreadCpuTime();
          readPages(c, index, offsets[k], pages);
          double micros = (cpu.getCurrentThreadCpuTime() - before) / 1e3 / pages;
          System.out.printf(
              "  page of %d at offset %,d (%s): %.1f us CPU%n", PAGE, offsets[k], names[k], micros);
        }
      }
    } finally {
      StorageRuns.delete(dir);
    }
  }

  /** Reads {@code pages} pages near {@code offset} (varied a little, so not one block only). */
  private static void readPages(EntryContainer c, VlvIndex index, int offset, int pages)
      throws Exception {
    for (int p = 0; p < pages; p++) {
      int from = Math.max(0, Math.min(index.size() - PAGE, offset + (p % 7) * 3));
      for (long id : index.idsAt(from, PAGE)) {
        if (c.get(id) == null) {
          throw new IllegalStateException("entry " + id + " listed by the index is missing");
        }
      }
    }
  }
}
