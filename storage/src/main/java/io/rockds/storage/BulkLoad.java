package io.rockds.storage;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.EnvOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.IngestExternalFileOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Loads a whole container from scratch, much faster than adding one entry at a time. Used by the
 * importer with exclusive access to the backend (no server running).
 *
 * <p>How: {@link #prepare} (thread-safe, run by parsing threads) encodes the entry and computes its
 * DN key and index keys; {@link #add} (one thread) allocates IDs in input order and
 *
 * <ul>
 *   <li>streams {@code id2entry} into an SST file (IDs ascend, so keys arrive sorted), compressed
 *       on a thread of its own ({@link BackgroundSstWriter}), ingested at the end: no memtable, no
 *       WAL, no compaction rewrite of the largest tree; {@code id2values} (the members of groups,
 *       photos and certificates, each entry's sorted after its ID) likewise;
 *   <li>writes {@code dn2id} in WAL-less batches (parents must be found as children arrive);
 *   <li>groups the IDs of every index key in an {@link IndexAccumulator} (memory, spilled to sorted
 *       runs), so {@link #finish} reads each index's keys in order with their IDs ascending, writes
 *       the final records (ID lists, or over-limit markers with exact counts) into one SST file per
 *       index, and ingests it.
 * </ul>
 *
 * Nothing is durable until {@link #finish} flushes; an interrupted load leaves the indexes
 * untrusted (they are marked so first) and is simply run again with a cleared container.
 */
public final class BulkLoad implements AutoCloseable {
  private static final int BATCH_ENTRIES = 5_000;

  private final EntryContainer container;
  private final Backend backend;
  private final List<AttributeIndex> indexes;
  private final Path workDirectory;

  /**
   * Batches go through the write-ahead log unsynced: {@link #finish} flushes, and RocksDB refuses
   * writes without the log while it recycles log files.
   */
  private final WriteOptions unsynced = new WriteOptions().setSync(false);

  private final EnvOptions envOptions = new EnvOptions();
  private final Options entriesOptions;
  private final Options keysOptions;
  private final Options valuesOptions;
  private final IndexAccumulator keys;
  private final BackgroundSstWriter entries;

  /** {@code id2values}: keys come sorted too (ID first, each entry's records sorted). */
  private final BackgroundSstWriter values;

  private WriteBatch batch = new WriteBatch();
  private int batchEntries;

  /** DN keys of the current batch, not yet visible through dn2id reads. */
  private final Map<ByteBuffer, Long> pendingDns = new HashMap<>();

  private final Map<Long, Long> childCounts = new HashMap<>();

  /** The parent found last: siblings come in runs, so most lookups are this one. */
  private byte[] lastParentKey;

  private long lastParentId;
  private long count;

  /** An entry encoded by a parsing thread, ready for {@link #add}. */
  public static final class Prepared {
    private final DN dn;
    private final byte[] dnKey;
    private final byte[] parentKey;
    private final byte[] encoded;
    private final List<byte[][]> valuesApart;
    private final IndexKey[][] indexKeys;

    private Prepared(
        DN dn,
        byte[] dnKey,
        byte[] parentKey,
        byte[] encoded,
        List<byte[][]> valuesApart,
        IndexKey[][] indexKeys) {
      this.dn = dn;
      this.dnKey = dnKey;
      this.parentKey = parentKey;
      this.encoded = encoded;
      this.valuesApart = valuesApart;
      this.indexKeys = indexKeys;
    }

    public DN dn() {
      return dn;
    }
  }

  BulkLoad(EntryContainer container, Path workDirectory) throws LDAPException {
    this.container = container;
    this.backend = container.backend();
    this.indexes = List.copyOf(container.indexes());
    this.workDirectory = workDirectory;
    try {
      Files.createDirectories(workDirectory);
      this.entriesOptions = backend.sstOptions(TreeTuning.Kind.ENTRIES);
      this.keysOptions = backend.sstOptions(TreeTuning.Kind.KEYS);
      this.valuesOptions = backend.sstOptions(TreeTuning.Kind.VALUES);
      this.keys =
          new IndexAccumulator(
              workDirectory,
              indexes.stream().map(AttributeIndex::entryLimit).toList(),
              IndexAccumulator.MEMORY_BYTES);
      this.entries =
          new BackgroundSstWriter(
              envOptions, entriesOptions, workDirectory, "id2entry", TreeTuning.TARGET_FILE_BYTES);
      this.values =
          new BackgroundSstWriter(
              envOptions, valuesOptions, workDirectory, "id2values", TreeTuning.TARGET_FILE_BYTES);
    } catch (IOException e) {
      throw new LDAPException(ResultCode.OTHER, "cannot create " + workDirectory + ": " + e, e);
    }
  }

  /** Encodes an entry and computes its keys; thread-safe. */
  public Prepared prepare(Entry entry) throws LDAPException {
    DN dn = entry.getParsedDN();
    byte[] dnKey = DnKeys.key(dn);
    byte[] parentKey = dn.equals(container.baseDn()) ? null : DnKeys.key(dn.getParent());
    if (!dn.isDescendantOf(container.baseDn(), true)) {
      throw new LDAPException(
          ResultCode.NO_SUCH_OBJECT,
          "the entry " + dn + " is not below the base DN " + container.baseDn());
    }
    IndexKey[][] indexKeys = new IndexKey[indexes.size()][];
    Map<String, List<Attribute>> attributes = AttributeIndex.attributesByType(entry);
    for (int i = 0; i < indexKeys.length; i++) {
      indexKeys[i] = indexes.get(i).keysWithRepeats(attributes).toArray(IndexKey[]::new);
    }
    try {
      Id2Entry.NewEntry encoded = container.id2entry().encodeNew(entry);
      return new Prepared(dn, dnKey, parentKey, encoded.record(), encoded.valuesApart(), indexKeys);
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  /**
   * Adds a prepared entry; entries must come parents first. Refused with entryAlreadyExists or
   * noSuchObject (missing parent); the load continues after a refusal.
   */
  public void add(Prepared entry) throws LDAPException {
    try {
      if (idOf(entry.dnKey) >= 0) {
        throw new LDAPException(
            ResultCode.ENTRY_ALREADY_EXISTS, "the entry " + entry.dn + " already exists");
      }
      long parentId = -1;
      if (entry.parentKey != null) {
        parentId = parentIdOf(entry.parentKey);
        if (parentId < 0) {
          throw new LDAPException(
              ResultCode.NO_SUCH_OBJECT,
              "the parent entry "
                  + entry.dn.getParent()
                  + " does not exist (parents must come before their children)");
        }
        childCounts.merge(parentId, 1L, Long::sum);
      }
      long id = backend.nextId();
      byte[] idKey = Bytes.longKey(id);
      entries.put(idKey, entry.encoded);
      for (byte[][] record : entry.valuesApart) {
        values.put(Bytes.concat(idKey, record[0]), record[1]);
      }
      batch.put(container.dn2id().handle(), entry.dnKey, idKey);
      pendingDns.put(ByteBuffer.wrap(entry.dnKey), id);
      keys.add(entry.indexKeys, id);
      count++;
      if (++batchEntries >= BATCH_ENTRIES) {
        flushBatch();
      }
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  /** Entries added so far. */
  public long count() {
    return count;
  }

  private long parentIdOf(byte[] parentKey) throws RocksDBException {
    if (!Arrays.equals(parentKey, lastParentKey)) {
      long id = idOf(parentKey);
      if (id < 0) {
        return id;
      }
      lastParentKey = parentKey;
      lastParentId = id;
    }
    return lastParentId;
  }

  private long idOf(byte[] dnKey) throws RocksDBException {
    Long pending = pendingDns.get(ByteBuffer.wrap(dnKey));
    if (pending != null) {
      return pending;
    }
    byte[] value = backend.rocksDb().get(container.dn2id().handle(), dnKey);
    return value == null ? -1 : Bytes.readLongKey(value, 0);
  }

  private void flushBatch() throws RocksDBException {
    backend.rocksDb().write(unsynced, batch);
    batch.close();
    batch = new WriteBatch();
    batchEntries = 0;
    pendingDns.clear();
  }

  /** Writes the counters and indexes, ingests the SST files and flushes: the load is durable. */
  public void finish() throws LDAPException {
    try {
      flushBatch();
      ingest(container.id2entry(), entries.finish());
      ingest(container.id2entry().values(), values.finish());
      // Plain values, not merge operands: the container was emptied, and a read of a counter
      // then finds one value instead of folding operands until a compaction.
      try (WriteBatch counters = new WriteBatch()) {
        for (Map.Entry<Long, Long> e : childCounts.entrySet()) {
          counters.put(
              container.id2childrenCount().handle(),
              Bytes.longKey(e.getKey()),
              Bytes.counter(e.getValue()));
        }
        counters.put(
            container.state().handle(),
            "entry-count".getBytes(java.nio.charset.StandardCharsets.UTF_8),
            Bytes.counter(count));
        backend.rocksDb().write(unsynced, counters);
      }
      writeIndexes();
      List<ColumnFamilyHandle> flushed = new ArrayList<>();
      for (Tree tree : container.trees()) {
        flushed.add(tree.handle());
      }
      try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
        backend.rocksDb().flush(flush, flushed);
      }
      // dn2id and the counters came through the memtable, so the flush left them in level 0,
      // where a point read checks every file. Compacted, they join the ingested trees in the last
      // level: one file to look at per read, as for every other tree.
      for (Tree tree :
          List.of(container.dn2id(), container.id2childrenCount(), container.state())) {
        backend.rocksDb().compactRange(tree.handle());
      }
      for (AttributeIndex index : indexes) {
        index.markBuilt(container.state());
        container.state().setTrusted(index.name(), true);
        index.setTrustedFlag(true);
      }
      backend.syncWal();
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  /**
   * Writes each index's records into SST files of its own (keys arrive in order) and ingests them.
   */
  private void writeIndexes() throws RocksDBException {
    try (WriteBatch overLimit = new WriteBatch();
        IndexFiles files = new IndexFiles(overLimit)) {
      keys.drain(files);
      files.finishCurrent();
      backend.rocksDb().write(unsynced, overLimit);
    }
  }

  /**
   * The SST files of the index being written; the next index's keys close them and start others.
   */
  private final class IndexFiles implements IndexAccumulator.Sink, AutoCloseable {
    private final WriteBatch overLimit;
    private RollingSstWriter writer;
    private int ordinal = -1;

    IndexFiles(WriteBatch overLimit) {
      this.overLimit = overLimit;
    }

    @Override
    public void key(int keyOrdinal, byte[] key, long count, IdSet ids) throws RocksDBException {
      if (keyOrdinal != ordinal) {
        finishCurrent();
        ordinal = keyOrdinal;
        writer =
            new RollingSstWriter(
                envOptions,
                keysOptions,
                workDirectory,
                "index-" + ordinal,
                TreeTuning.TARGET_FILE_BYTES);
      }
      AttributeIndex index = indexes.get(ordinal);
      if (ids == null) {
        writer.put(key, IdListCodec.overLimit());
        container.state().setOverLimitCount(overLimit, index.name(), key, count);
      } else {
        writer.put(key, IdListCodec.encode(ids));
      }
    }

    void finishCurrent() throws RocksDBException {
      if (writer == null) {
        return;
      }
      List<Path> files = writer.finish();
      writer.close();
      writer = null;
      ingest(indexes.get(ordinal), files);
    }

    @Override
    public void close() {
      if (writer != null) {
        writer.close();
      }
    }
  }

  /** Ingests files written in key order (an empty or all-rejected LDIF leaves none). */
  private void ingest(Tree tree, List<Path> files) throws RocksDBException {
    if (files.isEmpty()) {
      return;
    }
    try (IngestExternalFileOptions options = new IngestExternalFileOptions().setMoveFiles(true)) {
      backend
          .rocksDb()
          .ingestExternalFile(tree.handle(), files.stream().map(Path::toString).toList(), options);
    }
  }

  @Override
  public void close() {
    batch.close();
    entries.close();
    values.close();
    envOptions.close();
    entriesOptions.close();
    keysOptions.close();
    unsynced.close();
    valuesOptions.close();
    keys.close();
    try (var files = Files.walk(workDirectory)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException e) {
      // Temporary files only.
    }
  }
}
