package io.rockds.storage;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.rocksdb.CompressionType;
import org.rocksdb.EnvOptions;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileReader;
import org.rocksdb.SstFileReaderIterator;
import org.rocksdb.SstFileWriter;

/**
 * Groups the entry IDs of every index key of a {@link BulkLoad}, in memory, by key: IDs arrive in
 * ascending order, so a key's list is built by appending and only the distinct keys are ever
 * sorted, not the (key, ID) pairs (about 70 per entry of the OID template, most of them sharing
 * keys such as {@code objectClass=top} or the substring {@code exampl}). A key over its index's
 * entry limit keeps its count only. When the groups reach a memory budget, they are written in key
 * order to a run file (an uncompressed SST) by a background thread while new groups fill (so the
 * caller, the import's single writer thread, does not stop for the sort), and {@link #drain} merges
 * the runs, earlier runs first for equal keys, so each key's IDs still ascend.
 *
 * <p>Run record: key {@code ordinal (2 bytes) · index key}; value {@code varint count} followed,
 * unless the key was over the limit, by its IDs as varint deltas.
 */
final class IndexAccumulator implements AutoCloseable {
  /**
   * Estimated heap of the groups that triggers a spill: few runs even at millions of entries; at
   * most two such sets are held at once (one filling, one being written).
   */
  static final long MEMORY_BYTES = 256L << 20;

  /** Rough heap cost of a new key (map node, key, group, first ID array) and of one more ID. */
  private static final int KEY_OVERHEAD = 160;

  private static final int ID_COST = 12;

  private final Path directory;
  private final long memoryBytes;
  private final List<IndexEntryLimit> limits;
  private List<Map<IndexKey, Group>> groups;
  private final List<Path> runs = new ArrayList<>();
  private final ExecutorService spiller =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "import-spill");
            t.setDaemon(true);
            return t;
          });

  /** The spill in progress, if any: at most one, so memory stays within twice the budget. */
  private Future<?> spilling = CompletableFuture.completedFuture(null);

  private final EnvOptions envOptions = new EnvOptions();
  private final Options runOptions =
      new Options().setCompressionType(CompressionType.NO_COMPRESSION);
  private long memory;

  /** Receives every key of every index in (ordinal, key) order. */
  @FunctionalInterface
  interface Sink {
    /**
     * @param ids the key's IDs ascending, or null when {@code count} is over the index's limit
     */
    void key(int ordinal, byte[] key, long count, IdSet ids) throws RocksDBException;
  }

  /** The IDs of one key so far; {@code ids} is dropped when the key goes over the limit. */
  private static final class Group {
    long count;
    long lastId = -1;
    long[] ids = new long[2];
  }

  /**
   * @param memoryBytes estimated heap the groups may take before they are spilled to a run
   */
  IndexAccumulator(Path directory, List<IndexEntryLimit> limits, long memoryBytes) {
    this.directory = directory;
    this.memoryBytes = memoryBytes;
    this.limits = List.copyOf(limits);
    this.groups = newGroups();
  }

  private List<Map<IndexKey, Group>> newGroups() {
    List<Map<IndexKey, Group>> fresh = new ArrayList<>();
    for (int i = 0; i < limits.size(); i++) {
      fresh.add(new HashMap<>());
    }
    return fresh;
  }

  /**
   * Adds entry {@code id} (greater than every ID added before) under its keys, {@code
   * keys[ordinal]} per index; a key repeated for the same entry counts once.
   */
  void add(IndexKey[][] keys, long id) throws RocksDBException {
    for (int ordinal = 0; ordinal < keys.length; ordinal++) {
      Map<IndexKey, Group> index = groups.get(ordinal);
      IndexEntryLimit limit = limits.get(ordinal);
      for (IndexKey key : keys[ordinal]) {
        Group group = index.get(key);
        if (group == null) {
          group = new Group();
          index.put(key, group);
          memory += KEY_OVERHEAD + key.bytes().length;
        }
        append(group, id, limit);
      }
    }
    if (memory >= memoryBytes) {
      awaitSpill();
      List<Map<IndexKey, Group>> full = groups;
      Path run = nextRun();
      spilling =
          spiller.submit(
              () -> {
                write(full, run);
                return null;
              });
      groups = newGroups();
      memory = 0;
    }
  }

  private void append(Group group, long id, IndexEntryLimit limit) {
    if (group.lastId == id) {
      return;
    }
    group.lastId = id;
    long n = group.count++;
    if (group.ids == null) {
      return;
    }
    if (limit.isExceededBy(group.count)) {
      memory -= (long) group.ids.length * 8;
      group.ids = null;
      return;
    }
    if (n == group.ids.length) {
      group.ids = Arrays.copyOf(group.ids, group.ids.length * 2);
    }
    group.ids[(int) n] = id;
    memory += ID_COST;
  }

  private void awaitSpill() throws RocksDBException {
    try {
      spilling.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RocksDBException("interrupted while spilling index keys");
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RocksDBException r
          ? r
          : new RocksDBException(String.valueOf(e.getCause()));
    }
  }

  private Path nextRun() {
    Path run = directory.resolve("run-" + runs.size() + ".sst");
    runs.add(run);
    return run;
  }

  /** Writes groups, at least one, in key order to a run file. */
  private void write(List<Map<IndexKey, Group>> full, Path run) throws RocksDBException {
    try (SstFileWriter writer = new SstFileWriter(envOptions, runOptions)) {
      writer.open(run.toString());
      for (int ordinal = 0; ordinal < full.size(); ordinal++) {
        Map<IndexKey, Group> index = full.get(ordinal);
        List<Map.Entry<IndexKey, Group>> sorted = new ArrayList<>(index.entrySet());
        sorted.sort(Map.Entry.comparingByKey());
        for (Map.Entry<IndexKey, Group> e : sorted) {
          writer.put(runKey(ordinal, e.getKey().bytes()), runValue(e.getValue()));
        }
        index.clear();
      }
      writer.finish();
    }
  }

  private static byte[] runKey(int ordinal, byte[] key) {
    byte[] out = new byte[2 + key.length];
    out[0] = (byte) (ordinal >>> 8);
    out[1] = (byte) ordinal;
    System.arraycopy(key, 0, out, 2, key.length);
    return out;
  }

  private static byte[] runValue(Group group) {
    int n = group.ids == null ? 0 : (int) group.count;
    ByteBuffer out = ByteBuffer.allocate(10 + n * 10);
    Varint.write(out, group.count);
    long previous = 0;
    for (int i = 0; i < n; i++) {
      Varint.write(out, group.ids[i] - previous);
      previous = group.ids[i];
    }
    return Arrays.copyOf(out.array(), out.position());
  }

  /**
   * Spills what is in memory, then hands every key to {@code sink}, merged across runs, in order.
   */
  void drain(Sink sink) throws RocksDBException {
    awaitSpill();
    if (groups.stream().anyMatch(m -> !m.isEmpty())) {
      write(groups, nextRun());
    }
    List<SstFileReader> readers = new ArrayList<>();
    List<SstFileReaderIterator> iterators = new ArrayList<>();
    try (ReadOptions options = new ReadOptions().setFillCache(false).setReadaheadSize(4 << 20)) {
      PriorityQueue<Cursor> heads = new PriorityQueue<>();
      for (int i = 0; i < runs.size(); i++) {
        SstFileReader reader = new SstFileReader(runOptions);
        readers.add(reader);
        reader.open(runs.get(i).toString());
        SstFileReaderIterator it = reader.newIterator(options);
        iterators.add(it);
        it.seekToFirst();
        if (it.isValid()) {
          heads.add(new Cursor(i, it));
        }
      }
      while (!heads.isEmpty()) {
        byte[] key = heads.peek().key;
        long count = 0;
        IdSet.Builder ids = new IdSet.Builder();
        boolean over = false;
        while (!heads.isEmpty() && Arrays.equals(heads.peek().key, key)) {
          Cursor head = heads.poll();
          ByteBuffer value = ByteBuffer.wrap(head.iterator.value());
          long runCount = Varint.read(value);
          count += runCount;
          over |= !value.hasRemaining();
          long id = 0;
          while (value.hasRemaining()) {
            id += Varint.read(value);
            ids.add(id);
          }
          if (head.advance()) {
            heads.add(head);
          }
        }
        int ordinal = (key[0] & 0xFF) << 8 | (key[1] & 0xFF);
        boolean overLimit = over || limits.get(ordinal).isExceededBy(count);
        sink.key(
            ordinal, Arrays.copyOfRange(key, 2, key.length), count, overLimit ? null : ids.build());
      }
    } finally {
      iterators.forEach(SstFileReaderIterator::close);
      readers.forEach(SstFileReader::close);
    }
  }

  /** The current record of one run; earlier runs first among equal keys, so IDs ascend. */
  private static final class Cursor implements Comparable<Cursor> {
    private final int run;
    private final SstFileReaderIterator iterator;
    private byte[] key;

    Cursor(int run, SstFileReaderIterator iterator) {
      this.run = run;
      this.iterator = iterator;
      this.key = iterator.key();
    }

    boolean advance() {
      iterator.next();
      if (!iterator.isValid()) {
        return false;
      }
      key = iterator.key();
      return true;
    }

    @Override
    public int compareTo(Cursor o) {
      int c = Arrays.compareUnsigned(key, o.key);
      return c != 0 ? c : Integer.compare(run, o.run);
    }
  }

  @Override
  public void close() {
    spiller.shutdownNow();
    try {
      // A spill still writing (a failed load) must not outlive the options it uses.
      spiller.awaitTermination(1, java.util.concurrent.TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    runOptions.close();
    envOptions.close();
  }
}
