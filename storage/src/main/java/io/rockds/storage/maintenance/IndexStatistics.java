package io.rockds.storage.maintenance;

import io.rockds.storage.AttributeIndex;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.IndexEntryLimit;
import io.rockds.storage.IndexKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksIterator;

/**
 * Per-index and per-key statistics for backendstat: one walk of each index tree (record sizes are
 * read from the record header, IDs are not decoded) plus its over-limit counts in {@code state},
 * from one snapshot.
 */
public final class IndexStatistics {
  private final EntryContainer container;

  public IndexStatistics(EntryContainer container) {
    this.container = container;
  }

  /** Statistics of every index of the container, in configuration order. */
  public List<IndexStats> all() {
    return of(container.indexes());
  }

  public List<IndexStats> of(Collection<AttributeIndex> indexes) {
    try (ConsistentView view = new ConsistentView(container)) {
      List<IndexStats> stats = new ArrayList<>();
      for (AttributeIndex index : indexes) {
        stats.add(of(index, view.options()));
      }
      return stats;
    }
  }

  private IndexStats of(AttributeIndex index, ReadOptions options) {
    IndexEntryLimit limit = index.entryLimit();
    SortedMap<IndexKey, Long> counts = container.state().overLimitCounts(index.name(), options);
    List<KeyCount> overLimit = new ArrayList<>();
    List<KeyCount> recoverable = new ArrayList<>();
    List<KeyCount> nearLimit = new ArrayList<>();
    long records = 0;
    long ids = 0;
    try (RocksIterator it = index.newIterator(options)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        records++;
        byte[] value = it.value();
        IndexKey key = new IndexKey(it.key());
        if (AttributeIndex.isOverLimitRecord(value)) {
          KeyCount kc = new KeyCount(key, counts.getOrDefault(key, 0L));
          overLimit.add(kc);
          if (!limit.isExceededBy(kc.count())) {
            recoverable.add(kc);
          }
        } else {
          int n = AttributeIndex.idCount(value);
          ids += n;
          if (limit.isExceededBy(n)) {
            // Listed before the limit was lowered: reads as "all entries", a rebuild stores it so.
            overLimit.add(new KeyCount(key, n));
          } else if (limit.isAtPercent(n, IndexStats.THRESHOLDS[0])) {
            nearLimit.add(new KeyCount(key, n));
          }
        }
      }
    }
    return new IndexStats(
        index.name(),
        index.isTrusted(),
        limit,
        index.builtWithLimit(),
        records,
        ids,
        overLimit,
        nearLimit,
        recoverable);
  }

  /** The over-limit keys of {@code index} whose count is back within the limit. */
  public List<KeyCount> recoverableKeys(AttributeIndex index) {
    try (ConsistentView view = new ConsistentView(container)) {
      List<KeyCount> keys = new ArrayList<>();
      for (Map.Entry<IndexKey, Long> e :
          container.state().overLimitCounts(index.name(), view.options()).entrySet()) {
        if (!index.entryLimit().isExceededBy(e.getValue())) {
          keys.add(new KeyCount(e.getKey(), e.getValue()));
        }
      }
      return keys;
    }
  }
}
