package io.rockds.storage;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.Lock;
import java.util.function.LongConsumer;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.WriteBatch;

/**
 * Rebuilds indexes of one container from {@code id2entry} while writes continue.
 *
 * <ol>
 *   <li>Under the exclusive structure lock (no write in flight): mark the indexes untrusted, clear
 *       their trees and over-limit counts, and note the watermark, the next entry ID. Every entry
 *       below it is committed; every entry above it will be indexed by its own writer.
 *   <li>Walk {@code id2entry} below the watermark in ID order, a batch at a time. Each batch holds
 *       the DN lock stripes of its entries, re-reads them, adds their keys through the ordinary
 *       {@link IndexUpdates} path, commits (without fsync), then advances the cursor. A writer of
 *       an entry between the cursor and the watermark skips these indexes: the walk will read that
 *       entry's state after the writer commits. So each entry is counted exactly once, which
 *       matters for over-limit keys, whose blind count merges are not idempotent. Every write holds
 *       the stripes of the entries it changes (a subtree delete those of the whole subtree), so the
 *       walk never reads an entry between a writer's check and its commit.
 *   <li>Sync the WAL, then, under the exclusive structure lock, store the limit each index was
 *       built with (the one in force when it started: if it changed meanwhile, the index still
 *       answers correctly and reports that another rebuild would tighten it) and mark the indexes
 *       trusted.
 * </ol>
 *
 * Over-limit keys are recomputed from scratch, so a key whose count fell back under the limit lists
 * its IDs again.
 */
final class IndexBuild {
  private static final int BATCH_ENTRIES = 512;
  private static final int MAX_ATTEMPTS = 100;

  private final EntryContainer container;
  private final List<AttributeIndex> indexes;

  IndexBuild(EntryContainer container, List<AttributeIndex> indexes) {
    this.container = container;
    this.indexes = List.copyOf(indexes);
  }

  /** Runs the rebuild; {@code progress} receives the number of entries processed so far. */
  void run(LongConsumer progress) throws LDAPException {
    if (indexes.isEmpty()) {
      return;
    }
    try {
      Map<AttributeIndex, IndexEntryLimit> limits = new HashMap<>();
      long watermark = start(limits);
      long cursor = 0;
      long processed = 0;
      try {
        while (cursor < watermark) {
          long[] ids = nextIds(cursor, watermark);
          if (ids.length == 0) {
            break;
          }
          processed += indexBatch(ids);
          cursor = ids[ids.length - 1] + 1;
          progress.accept(processed);
        }
      } finally {
        for (AttributeIndex index : indexes) {
          index.finishBuild();
        }
      }
      container.backend().syncWal();
      trust(limits);
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  /** Clears the indexes and notes each one's limit in {@code limits}; returns the watermark. */
  private long start(Map<AttributeIndex, IndexEntryLimit> limits) throws RocksDBException {
    Lock exclusive = container.locks().lockStructureExclusively();
    try {
      long watermark = container.backend().peekNextId();
      for (AttributeIndex index : indexes) {
        limits.put(index, index.entryLimit());
        container.state().setTrusted(index.name(), false);
        index.setTrustedFlag(false);
        index.clear();
        container.state().clearOverLimitCounts(index.name());
        index.startBuild(watermark);
      }
      return watermark;
    } finally {
      exclusive.unlock();
    }
  }

  /** Marks the indexes trusted, each built with the limit noted when the rebuild started. */
  private void trust(Map<AttributeIndex, IndexEntryLimit> limits) throws RocksDBException {
    Lock exclusive = container.locks().lockStructureExclusively();
    try {
      for (AttributeIndex index : indexes) {
        int builtWith = limits.get(index).limit();
        container.state().storeEntryLimit(index.name(), builtWith);
        index.setBuiltWithLimit(builtWith);
        container.state().setTrusted(index.name(), true);
        index.setTrustedFlag(true);
      }
    } finally {
      exclusive.unlock();
    }
  }

  private long[] nextIds(long from, long watermark) {
    long[] ids = new long[BATCH_ENTRIES];
    int n = 0;
    try (Slice upper = new Slice(Bytes.longKey(watermark));
        ReadOptions options = new ReadOptions().setIterateUpperBound(upper);
        RocksIterator it = container.id2entry().newIterator(options)) {
      for (it.seek(Bytes.longKey(from)); it.isValid() && n < ids.length; it.next()) {
        ids[n++] = Id2Entry.idOf(it.key());
      }
    }
    return java.util.Arrays.copyOf(ids, n);
  }

  /** Indexes one batch under its entries' DN locks; returns how many entries still existed. */
  private int indexBatch(long[] ids) throws RocksDBException, LDAPException {
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      List<DN> dns = new ArrayList<>(ids.length);
      for (long id : ids) {
        Entry entry = container.id2entry().get(id);
        if (entry != null) {
          dns.add(entry.getParsedDN());
        }
      }
      int[] stripes = container.locks().stripes(dns.toArray(DN[]::new));
      int[] locked = container.locks().dnLocks().lock(stripes);
      Lock structure = container.locks().lockStructure();
      try {
        Integer done = indexLocked(ids, locked);
        if (done != null) {
          return done;
        }
      } finally {
        structure.unlock();
        container.locks().dnLocks().unlock(locked);
      }
    }
    throw new LDAPException(
        ResultCode.BUSY,
        "index rebuild: entries "
            + ids[0]
            + ".."
            + ids[ids.length - 1]
            + " kept being renamed during "
            + MAX_ATTEMPTS
            + " attempts; retry later");
  }

  /** Null when an entry was renamed onto a stripe not held: the caller retries the batch. */
  private Integer indexLocked(long[] ids, int[] locked) throws RocksDBException, LDAPException {
    IndexUpdates updates = new IndexUpdates();
    int present = 0;
    for (long id : ids) {
      Entry entry = container.id2entry().get(id);
      if (entry == null) {
        continue;
      }
      int stripe = container.locks().stripes(entry.getParsedDN())[0];
      if (java.util.Arrays.binarySearch(locked, stripe) < 0) {
        return null;
      }
      present++;
      for (AttributeIndex index : indexes) {
        updates.add(index, index.keysOf(entry), id);
      }
    }
    try (WriteBatch batch = new WriteBatch()) {
      int[] indexLocked = updates.writeTo(batch, container.state(), container.locks().indexLocks());
      try {
        container.backend().writeUnsynced(batch);
      } finally {
        container.locks().indexLocks().unlock(indexLocked);
      }
    }
    long cursor = ids[ids.length - 1] + 1;
    for (AttributeIndex index : indexes) {
      index.advanceBuild(cursor);
    }
    return present;
  }
}
