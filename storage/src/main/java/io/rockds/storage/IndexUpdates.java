package io.rockds.storage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * The index changes of one write, applied to its batch in two steps.
 *
 * <p>First, without any lock, every touched key is read: a key already over its entry limit only
 * gets a blind merge of its exact count (+n / -n) in {@code state}, so adding the millionth {@code
 * objectClass: person} costs one read and one merge, like the thousandth. Then the stripes of the
 * remaining keys are locked together (sorted), each record is re-read, changed and written to the
 * batch; the caller commits and only then unlocks, so no concurrent writer can lose an update.
 *
 * <p>VLV indexes: each one the write changes is locked (in name order, after the key stripes), its
 * blocks rewritten into the batch, and, once the caller committed, its block counts published
 * ({@link #publishVlv}) before the caller releases it ({@link #releaseVlv}).
 */
final class IndexUpdates {
  private static final class Delta {
    final IdSet.Builder added = new IdSet.Builder();
    final IdSet.Builder removed = new IdSet.Builder();
  }

  private record Pending(AttributeIndex index, IndexKey key, Delta delta) {}

  private record VlvChange(byte[] before, byte[] after) {}

  private final Map<AttributeIndex, Map<IndexKey, Delta>> byIndex = new LinkedHashMap<>();
  private final Map<VlvIndex, List<VlvChange>> vlv =
      new TreeMap<>(Comparator.comparing(VlvIndex::name));
  private final List<VlvIndex.Staging> staged = new ArrayList<>();
  private final List<VlvIndex> vlvLocked = new ArrayList<>();

  void add(AttributeIndex index, Set<IndexKey> keys, long id) {
    for (IndexKey key : keys) {
      delta(index, key).added.add(id);
    }
  }

  void remove(AttributeIndex index, Set<IndexKey> keys, long id) {
    for (IndexKey key : keys) {
      delta(index, key).removed.add(id);
    }
  }

  /** Records the keys {@code id} loses and gains in {@code index}. */
  void change(AttributeIndex index, KeyChange change, long id) {
    remove(index, change.lost(), id);
    add(index, change.gained(), id);
  }

  /**
   * Records that an entry's sort key in {@code index} goes from {@code before} to {@code after}.
   */
  void changeVlv(VlvIndex index, byte[] before, byte[] after) {
    if (!Arrays.equals(before, after)) {
      vlv.computeIfAbsent(index, i -> new ArrayList<>()).add(new VlvChange(before, after));
    }
  }

  private Delta delta(AttributeIndex index, IndexKey key) {
    return byIndex
        .computeIfAbsent(index, i -> new HashMap<>())
        .computeIfAbsent(key, k -> new Delta());
  }

  /**
   * Writes every change into {@code batch}. Returns the stripes it locked; the caller must commit
   * the batch and then pass them to {@link KeyLocks#unlock}.
   */
  int[] writeTo(WriteBatch batch, BackendState state, KeyLocks locks) throws RocksDBException {
    List<Pending> pending = new ArrayList<>();
    for (Map.Entry<AttributeIndex, Map<IndexKey, Delta>> perIndex : byIndex.entrySet()) {
      AttributeIndex index = perIndex.getKey();
      for (Map.Entry<IndexKey, Delta> e : perIndex.getValue().entrySet()) {
        byte[] current = index.db.get(index.handle, e.getKey().bytes());
        if (IdListCodec.isOverLimit(current)) {
          mergeCount(batch, state, index, e.getKey(), e.getValue());
        } else {
          pending.add(new Pending(index, e.getKey(), e.getValue()));
        }
      }
    }
    int[] wanted = new int[pending.size()];
    for (int i = 0; i < wanted.length; i++) {
      Pending p = pending.get(i);
      wanted[i] = locks.stripeOf(p.index.name().hashCode() * 31 + p.key.hashCode());
    }
    int[] locked = locks.lock(wanted);
    try {
      for (Pending p : pending) {
        apply(batch, state, p);
      }
      stageVlv(batch);
    } catch (RocksDBException | RuntimeException e) {
      releaseVlv();
      locks.unlock(locked);
      throw e;
    }
    return locked;
  }

  private void stageVlv(WriteBatch batch) throws RocksDBException {
    for (Map.Entry<VlvIndex, List<VlvChange>> e : vlv.entrySet()) {
      VlvIndex index = e.getKey();
      index.lock.lock();
      vlvLocked.add(index);
      VlvIndex.Staging staging = index.stage();
      for (VlvChange change : e.getValue()) {
        if (change.before() != null) {
          staging.remove(change.before());
        }
        if (change.after() != null) {
          staging.insert(change.after());
        }
      }
      staging.writeTo(batch);
      staged.add(staging);
    }
  }

  /** After the batch is committed: the VLV indexes' new block counts become visible. */
  void publishVlv() {
    staged.forEach(VlvIndex.Staging::publish);
  }

  /** Unlocks the VLV indexes {@link #writeTo} locked; the caller does it after committing. */
  void releaseVlv() {
    vlvLocked.forEach(index -> index.lock.unlock());
    vlvLocked.clear();
  }

  private static void mergeCount(
      WriteBatch batch, BackendState state, AttributeIndex index, IndexKey key, Delta delta)
      throws RocksDBException {
    long change = (long) delta.added.size() - delta.removed.size();
    if (change != 0) {
      state.addOverLimitCount(batch, index.name(), key.bytes(), change);
    }
  }

  private static void apply(WriteBatch batch, BackendState state, Pending p)
      throws RocksDBException {
    AttributeIndex index = p.index;
    byte[] key = p.key.bytes();
    byte[] current = index.db.get(index.handle, key);
    if (IdListCodec.isOverLimit(current)) {
      // Another writer pushed the key over the limit between our unlocked read and the lock.
      mergeCount(batch, state, index, p.key, p.delta);
      return;
    }
    IdSet ids =
        IdListCodec.decode(current).union(p.delta.added.build()).minus(p.delta.removed.build());
    if (index.limits().isExceededBy(index, ids.size())) {
      batch.put(index.handle, key, IdListCodec.overLimit());
      state.setOverLimitCount(batch, index.name(), key, ids.size());
    } else if (ids.isEmpty()) {
      if (current != null) {
        batch.delete(index.handle, key);
      }
    } else {
      batch.put(index.handle, key, IdListCodec.encode(ids));
    }
  }
}
