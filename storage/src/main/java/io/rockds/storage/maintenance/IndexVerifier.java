package io.rockds.storage.maintenance;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.storage.AttributeIndex;
import io.rockds.storage.Dn2Id;
import io.rockds.storage.DnKeys;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.Id2ChildrenCount;
import io.rockds.storage.Id2Entry;
import io.rockds.storage.Id2Values;
import io.rockds.storage.IdSet;
import io.rockds.storage.IndexEntryLimit;
import io.rockds.storage.IndexKey;
import io.rockds.storage.StorageErrors;
import io.rockds.storage.maintenance.Mismatch.Kind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.LongConsumer;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * Verifies a container against {@code id2entry}, reporting every mismatch.
 *
 * <p>{@link #verifyIndexes} reads every entry once, derives the keys each index should hold, then
 * walks each index tree in key order beside them: IDs missing or extra, a key listing IDs past the
 * limit or marked over-limit wrongly, over-limit counts that are wrong or stray. Expected IDs are
 * kept per key only up to the limit (then just counted), so memory is bounded by keys &times;
 * limit, not entries &times; values.
 *
 * <p>{@link #verifyEntryTrees} checks that dn2id and id2entry map each other, that id2childrencount
 * matches the children dn2id holds, the entry counter, and that every value in id2values belongs to
 * an entry storing its attribute apart.
 *
 * <p>Everything is read from one snapshot: the result is exact while writes continue.
 */
public final class IndexVerifier {
  /** How many entries the index check reads between two progress reports. */
  private static final int PROGRESS_EVERY = 1024;

  private final EntryContainer container;
  private final LongConsumer progress;

  public IndexVerifier(EntryContainer container) {
    this(container, entries -> {});
  }

  /**
   * @param progress receives the number of entries the index check has read so far
   */
  public IndexVerifier(EntryContainer container, LongConsumer progress) {
    this.container = container;
    this.progress = progress;
  }

  /** Verifies every index and the entry trees. */
  public VerifyReport verifyAll() throws LDAPException {
    VerifyReport trees = verifyEntryTrees();
    VerifyReport indexes = verifyIndexes(container.indexes());
    List<Mismatch> all = new ArrayList<>(trees.mismatches());
    all.addAll(indexes.mismatches());
    return new VerifyReport(
        trees.entriesChecked(),
        trees.recordsChecked() + indexes.recordsChecked(),
        all,
        indexes.recoverableKeys());
  }

  /** Verifies these indexes (of this container) against id2entry. */
  public VerifyReport verifyIndexes(Collection<AttributeIndex> indexes) throws LDAPException {
    try (ConsistentView view = new ConsistentView(container)) {
      Map<AttributeIndex, SortedMap<IndexKey, ExpectedIds>> expected = new LinkedHashMap<>();
      for (AttributeIndex index : indexes) {
        expected.put(index, new TreeMap<>());
      }
      List<Mismatch> mismatches = new ArrayList<>();
      long entries = 0;
      try (RocksIterator it = container.id2entry().newIterator(view.options())) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          long id = Id2Entry.idOf(it.key());
          Entry entry = decode(it.value(), id, view.options(), mismatches);
          if (++entries % PROGRESS_EVERY == 0) {
            progress.accept(entries);
          }
          if (entry == null) {
            continue;
          }
          for (Map.Entry<AttributeIndex, SortedMap<IndexKey, ExpectedIds>> e :
              expected.entrySet()) {
            IndexEntryLimit limit = e.getKey().entryLimit();
            for (IndexKey key : e.getKey().keysOf(entry)) {
              e.getValue().computeIfAbsent(key, k -> new ExpectedIds()).add(id, limit);
            }
          }
        }
      }
      progress.accept(entries);
      long records = 0;
      List<String> recoverable = new ArrayList<>();
      for (Map.Entry<AttributeIndex, SortedMap<IndexKey, ExpectedIds>> e : expected.entrySet()) {
        records += compare(e.getKey(), e.getValue(), view.options(), mismatches, recoverable);
      }
      return new VerifyReport(entries, records, mismatches, recoverable);
    }
  }

  private Entry decode(byte[] value, long id, ReadOptions options, List<Mismatch> mismatches) {
    try {
      return container.id2entry().decode(id, value, options);
    } catch (RuntimeException e) {
      mismatches.add(
          new Mismatch(
              "id2entry", Kind.UNDECODABLE_ENTRY, Long.toString(id), id, String.valueOf(e)));
      return null;
    }
  }

  /** The IDs one key should list, kept only while within the limit; beyond it only counted. */
  private static final class ExpectedIds {
    private IdSet.Builder ids = new IdSet.Builder();
    private long count;

    void add(long id, IndexEntryLimit limit) {
      count++;
      if (limit.isExceededBy(count)) {
        ids = null;
      } else {
        ids.add(id);
      }
    }

    boolean overLimit() {
      return ids == null;
    }
  }

  private long compare(
      AttributeIndex index,
      SortedMap<IndexKey, ExpectedIds> expected,
      ReadOptions options,
      List<Mismatch> out,
      List<String> recoverable) {
    String tree = index.name();
    SortedMap<IndexKey, Long> counts = container.state().overLimitCounts(tree, options);
    long records = 0;
    Iterator<Map.Entry<IndexKey, ExpectedIds>> wanted = expected.entrySet().iterator();
    Map.Entry<IndexKey, ExpectedIds> next = wanted.hasNext() ? wanted.next() : null;
    try (RocksIterator it = index.newIterator(options)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        records++;
        IndexKey key = new IndexKey(it.key());
        while (next != null && next.getKey().compareTo(key) < 0) {
          reportAbsentRecord(tree, next.getKey(), next.getValue(), out);
          next = wanted.hasNext() ? wanted.next() : null;
        }
        ExpectedIds want = null;
        if (next != null && next.getKey().equals(key)) {
          want = next.getValue();
          next = wanted.hasNext() ? wanted.next() : null;
        }
        byte[] value = it.value();
        if (AttributeIndex.isOverLimitRecord(value)) {
          Long stored = counts.remove(key);
          checkOverLimit(index, key, want, stored, out, recoverable);
        } else {
          checkIds(index, key, want, AttributeIndex.decodeRecord(value), out, recoverable);
        }
      }
    }
    while (next != null) {
      reportAbsentRecord(tree, next.getKey(), next.getValue(), out);
      next = wanted.hasNext() ? wanted.next() : null;
    }
    for (Map.Entry<IndexKey, Long> stray : counts.entrySet()) {
      out.add(
          Mismatch.ofKey(
              tree,
              Kind.STRAY_OVER_LIMIT_COUNT,
              stray.getKey(),
              "an over-limit count of "
                  + stray.getValue()
                  + " is kept but the record is not over the limit"));
    }
    return records;
  }

  private static void reportAbsentRecord(
      String tree, IndexKey key, ExpectedIds want, List<Mismatch> out) {
    if (want.overLimit()) {
      out.add(
          Mismatch.ofKey(
              tree,
              Kind.WRONG_LIMIT_STATE,
              key,
              "no record, but "
                  + want.count
                  + " entries hold the key: expected an over-limit marker"));
      return;
    }
    for (long id : want.ids.build().toArray()) {
      out.add(new Mismatch(tree, Kind.MISSING_ID, key.toString(), id, "no record for the key"));
    }
  }

  private static void checkOverLimit(
      AttributeIndex index,
      IndexKey key,
      ExpectedIds want,
      Long stored,
      List<Mismatch> out,
      List<String> recoverable) {
    String tree = index.name();
    long actual = want == null ? 0 : want.count;
    if (stored == null || stored != actual) {
      out.add(
          Mismatch.ofKey(
              tree,
              Kind.WRONG_OVER_LIMIT_COUNT,
              key,
              "over-limit count " + stored + ", but " + actual + " entries hold the key"));
    } else if (!index.entryLimit().isExceededBy(actual)) {
      // Consistent (reads as "all entries", a superset) but no longer necessary.
      recoverable.add(tree + " " + key);
    }
  }

  private static void checkIds(
      AttributeIndex index,
      IndexKey key,
      ExpectedIds want,
      IdSet found,
      List<Mismatch> out,
      List<String> recoverable) {
    String tree = index.name();
    if (want != null && want.overLimit() && found.size() == want.count) {
      // Written before the limit was lowered: reads it as "all entries" already, its next write
      // or a rebuild stores it over the limit.
      recoverable.add(tree + " " + key);
      return;
    }
    if (want != null && want.overLimit()) {
      out.add(
          Mismatch.ofKey(
              tree,
              Kind.WRONG_LIMIT_STATE,
              key,
              "the record lists "
                  + found.size()
                  + " IDs, but "
                  + want.count
                  + " entries hold the key: expected an over-limit marker"));
      return;
    }
    IdSet expected = want == null ? IdSet.empty() : want.ids.build();
    for (long id : expected.minus(found).toArray()) {
      out.add(new Mismatch(tree, Kind.MISSING_ID, key.toString(), id, "the entry holds the key"));
    }
    for (long id : found.minus(expected).toArray()) {
      out.add(
          new Mismatch(tree, Kind.EXTRA_ID, key.toString(), id, "the entry does not hold the key"));
    }
  }

  /**
   * Verifies that dn2id and id2entry map each other one to one, that every entry but the base has
   * its parent, that id2childrencount holds each entry's number of children, and the entry counter.
   */
  public VerifyReport verifyEntryTrees() throws LDAPException {
    try (ConsistentView view = new ConsistentView(container)) {
      ReadOptions options = view.options();
      List<Mismatch> out = new ArrayList<>();
      Map<Long, Long> children = new HashMap<>();
      long entries = 0;
      long records = 0;
      try (RocksIterator it = container.id2entry().newIterator(options)) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          entries++;
          long id = Id2Entry.idOf(it.key());
          Entry entry = decode(it.value(), id, options, out);
          if (entry != null) {
            checkEntry(id, entry.getParsedDN(), options, children, out);
          }
        }
      }
      try (RocksIterator it = container.dn2id().newIterator(options)) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          records++;
          checkDnRecord(it.key(), Dn2Id.idOf(it.value()), options, out);
        }
      }
      records += checkValuesApart(options, out);
      records += checkChildCounts(children, options, out);
      long counter = container.state().entryCount(options);
      if (counter != entries) {
        out.add(
            new Mismatch(
                "state",
                Kind.WRONG_ENTRY_COUNT,
                "entry-count",
                -1,
                "entry-count is " + counter + ", id2entry holds " + entries + " entries"));
      }
      return new VerifyReport(entries, records, out, List.of());
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  /** Every id2values record belongs to an entry whose record lists its attribute as apart. */
  private long checkValuesApart(ReadOptions options, List<Mismatch> out) throws RocksDBException {
    Id2Values values = container.id2entry().values();
    if (values == null) {
      return 0;
    }
    long records = 0;
    long id = -1;
    Set<Integer> apart = null;
    try (RocksIterator it = values.newIterator(options)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        records++;
        byte[] key = it.key();
        if (Id2Values.idOf(key) != id) {
          id = Id2Values.idOf(key);
          apart = container.id2entry().descriptionsApart(id, options);
        }
        if (apart == null || !apart.contains(Id2Values.descriptionIdOf(key))) {
          out.add(
              new Mismatch(
                  "id2values",
                  Kind.ORPHAN_VALUE,
                  values.keyToString(key),
                  id,
                  apart == null
                      ? "the entry does not exist"
                      : "the entry does not store this attribute apart"));
        }
      }
    }
    return records;
  }

  private void checkEntry(
      long id, DN dn, ReadOptions options, Map<Long, Long> children, List<Mismatch> out)
      throws RocksDBException {
    long mapped = container.dn2id().get(dn, options);
    if (mapped != id) {
      out.add(
          new Mismatch(
              "dn2id",
              Kind.DN_NOT_MAPPED,
              dn.toString(),
              id,
              "entry " + id + " has this DN, dn2id maps it to " + mapped));
    }
    if (dn.equals(container.baseDn())) {
      return;
    }
    long parent = container.dn2id().get(dn.getParent(), options);
    if (parent < 0) {
      out.add(
          new Mismatch(
              "dn2id", Kind.MISSING_PARENT, dn.toString(), id, "the parent entry does not exist"));
    } else {
      children.merge(parent, 1L, Long::sum);
    }
  }

  private void checkDnRecord(byte[] key, long id, ReadOptions options, List<Mismatch> out)
      throws RocksDBException, LDAPException {
    Entry entry;
    try {
      entry = container.id2entry().get(id, options);
    } catch (RuntimeException e) {
      return; // reported as undecodable by the id2entry walk
    }
    String orphan =
        entry == null
            ? "which does not exist"
            : Arrays.equals(DnKeys.key(entry.getParsedDN()), key)
                ? null
                : "whose DN is " + entry.getDN();
    if (orphan != null) {
      out.add(
          new Mismatch(
              "dn2id",
              Kind.ORPHAN_DN,
              container.dn2id().keyToString(key),
              id,
              "dn2id maps it to entry " + id + ", " + orphan));
    }
  }

  private long checkChildCounts(Map<Long, Long> children, ReadOptions options, List<Mismatch> out) {
    Map<Long, Long> remaining = new HashMap<>(children);
    long records = 0;
    try (RocksIterator it = container.id2childrenCount().newIterator(options)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        records++;
        long parent = Id2ChildrenCount.idOf(it.key());
        long stored = Id2ChildrenCount.countOf(it.value());
        long actual = remaining.getOrDefault(parent, 0L);
        remaining.remove(parent);
        if (stored != actual) {
          out.add(
              new Mismatch(
                  "id2childrencount",
                  Kind.WRONG_CHILD_COUNT,
                  Long.toString(parent),
                  parent,
                  "count " + stored + ", dn2id holds " + actual + " children"));
        }
      }
    }
    for (Map.Entry<Long, Long> missing : remaining.entrySet()) {
      out.add(
          new Mismatch(
              "id2childrencount",
              Kind.WRONG_CHILD_COUNT,
              Long.toString(missing.getKey()),
              missing.getKey(),
              "no count, dn2id holds " + missing.getValue() + " children"));
    }
    return records;
  }
}
