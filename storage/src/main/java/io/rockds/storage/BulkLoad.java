package io.rockds.storage;

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
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.SstFileWriter;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Loads a whole container from scratch, much faster than adding one entry at a time. Used by the
 * importer with exclusive access to the backend (no server running).
 *
 * <p>How: {@link #prepare} (thread-safe, run by parsing threads) encodes the entry and computes its
 * DN key and index keys; {@link #add} (one thread) allocates IDs in input order and
 * <ul>
 *   <li>streams {@code id2entry} into an SST file (IDs ascend, so keys arrive sorted) ingested at
 *       the end: no memtable, no WAL, no compaction rewrite of the largest tree;
 *   <li>writes {@code dn2id} in WAL-less batches (parents must be found as children arrive);
 *   <li>writes every (index key, ID) pair as a key of a {@link PairSorter}, a scratch RocksDB
 *       that sorts them (memtable flushes are its sorted runs), so {@link #finish} reads
 *       each index's keys in order with their IDs ascending, writes the final records (ID lists,
 *       or over-limit markers with exact counts) into one SST file per index, and ingests it.
 * </ul>
 * Nothing is durable until {@link #finish} flushes; an interrupted load leaves the indexes
 * untrusted (they are marked so first) and is simply run again with a cleared container.
 */
public final class BulkLoad implements AutoCloseable {
  private static final int BATCH_ENTRIES = 5_000;

  private final EntryContainer container;
  private final Backend backend;
  private final List<AttributeIndex> indexes;
  private final Path workDirectory;
  private final WriteOptions noWal = new WriteOptions().setDisableWAL(true);
  private final EnvOptions envOptions = new EnvOptions();
  private final Options sstOptions;
  private final PairSorter pairs;
  private WriteBatch pairBatch = new WriteBatch();
  private final SstFileWriter entries;
  private final Path entriesFile;
  private long entriesWritten;
  private WriteBatch batch = new WriteBatch();
  private int batchEntries;
  /** DN keys of the current batch, not yet visible through dn2id reads. */
  private final Map<ByteBuffer, Long> pendingDns = new HashMap<>();
  private final Map<Long, Long> childCounts = new HashMap<>();
  private long count;

  /** An entry encoded by a parsing thread, ready for {@link #add}. */
  public static final class Prepared {
    private final DN dn;
    private final byte[] dnKey;
    private final byte[] parentKey;
    private final byte[] encoded;
    private final byte[][][] indexKeys;

    private Prepared(DN dn, byte[] dnKey, byte[] parentKey, byte[] encoded, byte[][][] indexKeys) {
      this.dn = dn;
      this.dnKey = dnKey;
      this.parentKey = parentKey;
      this.encoded = encoded;
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
      this.sstOptions = backend.sstOptions();
      this.pairs = new PairSorter(workDirectory.resolve("pairs"));
      this.entriesFile = workDirectory.resolve("id2entry.sst");
      this.entries = new SstFileWriter(envOptions, sstOptions);
      entries.open(entriesFile.toString());
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
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
      throw new LDAPException(ResultCode.NO_SUCH_OBJECT, "the entry " + dn + " is not below the base DN "
          + container.baseDn());
    }
    byte[][][] keys = new byte[indexes.size()][][];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = indexes.get(i).keysOf(entry).stream().map(IndexKey::bytes).toArray(byte[][]::new);
    }
    try {
      return new Prepared(dn, dnKey, parentKey, container.id2entry().encode(entry), keys);
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
        throw new LDAPException(ResultCode.ENTRY_ALREADY_EXISTS, "the entry " + entry.dn + " already exists");
      }
      long parentId = -1;
      if (entry.parentKey != null) {
        parentId = idOf(entry.parentKey);
        if (parentId < 0) {
          throw new LDAPException(ResultCode.NO_SUCH_OBJECT, "the parent entry " + entry.dn.getParent()
              + " does not exist (parents must come before their children)");
        }
        childCounts.merge(parentId, 1L, Long::sum);
      }
      long id = backend.nextId();
      entries.put(Bytes.longKey(id), entry.encoded);
      entriesWritten++;
      batch.put(container.dn2id().handle(), entry.dnKey, Bytes.longKey(id));
      pendingDns.put(ByteBuffer.wrap(entry.dnKey), id);
      for (int i = 0; i < entry.indexKeys.length; i++) {
        for (byte[] key : entry.indexKeys[i]) {
          pairBatch.put(pairKey(i, key, id), new byte[0]);
        }
      }
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

  private long idOf(byte[] dnKey) throws RocksDBException {
    Long pending = pendingDns.get(ByteBuffer.wrap(dnKey));
    if (pending != null) {
      return pending;
    }
    byte[] value = backend.rocksDb().get(container.dn2id().handle(), dnKey);
    return value == null ? -1 : Bytes.readLongKey(value, 0);
  }

  private void flushBatch() throws RocksDBException {
    backend.rocksDb().write(noWal, batch);
    batch.close();
    batch = new WriteBatch();
    pairs.write(pairBatch);
    pairBatch.close();
    pairBatch = new WriteBatch();
    batchEntries = 0;
    pendingDns.clear();
  }

  /**
   * {@code ordinal (2 bytes) · escaped key · 00 00 · id (8 bytes)}: the escape (00 → 00 01) keeps
   * raw key order and makes 00 00 end the key, so a key that is a prefix of another sorts first
   * with all its IDs, whatever bytes either contains.
   */
  static byte[] pairKey(int ordinal, byte[] key, long id) {
    int zeros = 0;
    for (byte b : key) {
      if (b == 0) {
        zeros++;
      }
    }
    ByteBuffer out = ByteBuffer.allocate(2 + key.length + zeros + 2 + 8);
    out.putShort((short) ordinal);
    for (byte b : key) {
      out.put(b);
      if (b == 0) {
        out.put((byte) 1);
      }
    }
    out.put((byte) 0).put((byte) 0).putLong(id);
    return out.array();
  }

  /** Writes the counters and indexes, ingests the SST files and flushes: the load is durable. */
  public void finish() throws LDAPException {
    try {
      flushBatch();
      // RocksDB refuses to finish an SST file with no entries (an empty or all-rejected LDIF).
      if (entriesWritten > 0) {
        entries.finish();
        ingest(container.id2entry(), entriesFile);
      }
      try (WriteBatch counters = new WriteBatch()) {
        for (Map.Entry<Long, Long> e : childCounts.entrySet()) {
          counters.merge(container.id2childrenCount().handle(), Bytes.longKey(e.getKey()), Bytes.counter(e.getValue()));
        }
        counters.merge(container.state().handle(), "entry-count".getBytes(java.nio.charset.StandardCharsets.UTF_8),
            Bytes.counter(count));
        backend.rocksDb().write(noWal, counters);
      }
      writeIndexes();
      List<ColumnFamilyHandle> flushed = new ArrayList<>();
      for (Tree tree : container.trees()) {
        flushed.add(tree.handle());
      }
      try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
        backend.rocksDb().flush(flush, flushed);
      }
      for (AttributeIndex index : indexes) {
        container.state().storeEntryLimit(index.name(), index.entryLimit().limit());
        container.state().setTrusted(index.name(), true);
        index.setTrustedFlag(true);
      }
      backend.syncWal();
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  private void writeIndexes() throws RocksDBException {
    try (ReadOptions options = new ReadOptions().setFillCache(false).setReadaheadSize(4 << 20);
        RocksIterator it = pairs.sorted(options);
        WriteBatch overLimit = new WriteBatch()) {
      it.seekToFirst();
      for (int ordinal = 0; ordinal < indexes.size(); ordinal++) {
        writeIndex(ordinal, it, overLimit);
      }
      backend.rocksDb().write(noWal, overLimit);
    }
  }

  /** Consumes the pairs of one index (the iterator is positioned on its first) into an SST file. */
  private void writeIndex(int ordinal, RocksIterator it, WriteBatch overLimit) throws RocksDBException {
    AttributeIndex index = indexes.get(ordinal);
    IndexEntryLimit limit = index.entryLimit();
    Path file = workDirectory.resolve("index-" + ordinal + ".sst");
    boolean any = false;
    try (SstFileWriter writer = new SstFileWriter(envOptions, sstOptions)) {
      writer.open(file.toString());
      byte[] currentKey = null;
      IdSet.Builder ids = new IdSet.Builder();
      long keyCount = 0;
      for (; it.isValid(); it.next()) {
        byte[] pair = it.key();
        if (((pair[0] & 0xFF) << 8 | (pair[1] & 0xFF)) != ordinal) {
          break;
        }
        byte[] key = unescape(pair);
        long id = Bytes.readLongKey(pair, pair.length - 8);
        if (currentKey != null && !Arrays.equals(currentKey, key)) {
          writeRecord(index, writer, overLimit, currentKey, ids, keyCount);
          any = true;
          ids = new IdSet.Builder();
          keyCount = 0;
        }
        currentKey = key;
        keyCount++;
        if (!limit.isExceededBy(keyCount)) {
          ids.add(id);
        }
      }
      if (currentKey != null) {
        writeRecord(index, writer, overLimit, currentKey, ids, keyCount);
        any = true;
      }
      if (any) {
        writer.finish();
      }
    }
    if (any) {
      ingest(index, file);
    }
  }

  private void writeRecord(AttributeIndex index, SstFileWriter writer, WriteBatch overLimit, byte[] key,
      IdSet.Builder ids, long keyCount) throws RocksDBException {
    if (index.entryLimit().isExceededBy(keyCount)) {
      writer.put(key, IdListCodec.overLimit());
      container.state().setOverLimitCount(overLimit, index.name(), key, keyCount);
    } else {
      writer.put(key, IdListCodec.encode(ids.build()));
    }
  }

  private static byte[] unescape(byte[] pair) {
    ByteBuffer out = ByteBuffer.allocate(pair.length);
    for (int i = 2; i < pair.length - 10; i++) {
      out.put(pair[i]);
      if (pair[i] == 0) {
        i++; // skip the escape byte
      }
    }
    return Arrays.copyOf(out.array(), out.position());
  }

  private void ingest(Tree tree, Path file) throws RocksDBException {
    try (IngestExternalFileOptions options = new IngestExternalFileOptions().setMoveFiles(true)) {
      backend.rocksDb().ingestExternalFile(tree.handle(), List.of(file.toString()), options);
    }
  }

  @Override
  public void close() {
    batch.close();
    pairBatch.close();
    entries.close();
    envOptions.close();
    sstOptions.close();
    noWal.close();
    pairs.close();
    try (var files = Files.walk(workDirectory)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException e) {
      // Temporary files only.
    }
  }
}
