package io.rockds.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexAccumulatorTest {
  @TempDir Path dir;

  private record Drained(int ordinal, String key, long count, List<Long> ids) {}

  /** What an accumulator drains, in drain order. */
  private static List<Drained> drain(IndexAccumulator accumulator) throws Exception {
    List<Drained> out = new ArrayList<>();
    accumulator.drain(
        (ordinal, key, count, ids) -> {
          List<Long> list = null;
          if (ids != null) {
            list = new ArrayList<>();
            for (int i = 0; i < ids.size(); i++) {
              list.add(ids.get(i));
            }
          }
          out.add(new Drained(ordinal, new IndexKey(key).toString(), count, list));
        });
    return out;
  }

  @Test
  void mergesSpilledRunsIntoOrderedKeysWithAscendingIdsAndExactOverLimitCounts() throws Exception {
    List<IndexEntryLimit> limits = List.of(new IndexEntryLimit(50), new IndexEntryLimit(0));
    Random random = new Random(7);
    // Expected: per index, key -> IDs (a TreeMap of the UTF-8 text sorts like the raw bytes for
    // ASCII).
    List<TreeMap<String, List<Long>>> expected = List.of(new TreeMap<>(), new TreeMap<>());
    // A budget of a few kB forces dozens of runs, with keys spread across them.
    try (IndexAccumulator accumulator = new IndexAccumulator(dir, limits, 4_000)) {
      for (long id = 1; id <= 2_000; id++) {
        IndexKey[][] keys = new IndexKey[2][];
        for (int ordinal = 0; ordinal < 2; ordinal++) {
          // Key "k0" is shared by every entry; the others by a few; "a" < "k..." and "k1" < "k10"
          // test order.
          List<IndexKey> entryKeys =
              new ArrayList<>(
                  List.of(IndexKey.of("k0"), IndexKey.of("k" + (1 + random.nextInt(300)))));
          if (id % 500 == 0) {
            entryKeys.add(IndexKey.of("a" + id));
          }
          if (id % 3 == 0) {
            entryKeys.add(IndexKey.of("k0")); // a key repeated within one entry counts once
          }
          keys[ordinal] = entryKeys.toArray(IndexKey[]::new);
          for (IndexKey key : new java.util.LinkedHashSet<>(entryKeys)) {
            expected.get(ordinal).computeIfAbsent(key.toString(), k -> new ArrayList<>()).add(id);
          }
        }
        accumulator.add(keys, id);
      }
      List<Drained> drained = drain(accumulator);

      List<Drained> wanted = new ArrayList<>();
      for (int ordinal = 0; ordinal < 2; ordinal++) {
        for (Map.Entry<String, List<Long>> e : expected.get(ordinal).entrySet()) {
          long count = e.getValue().size();
          boolean over = limits.get(ordinal).isExceededBy(count);
          wanted.add(new Drained(ordinal, e.getKey(), count, over ? null : e.getValue()));
        }
      }
      assertThat(drained).containsExactlyElementsOf(wanted);
      // Index 0 has limit 50: the shared key is over it with its exact count; index 1 is unlimited.
      assertThat(drained).contains(new Drained(0, "k0", 2_000, null));
      assertThat(
              drained.stream()
                  .filter(d -> d.ordinal() == 1 && d.key().equals("k0"))
                  .findFirst()
                  .orElseThrow()
                  .ids())
          .hasSize(2_000);
    }
  }

  @Test
  void drainsNothingWhenNothingWasAdded() throws Exception {
    try (IndexAccumulator accumulator =
        new IndexAccumulator(dir, List.of(new IndexEntryLimit(10)), 1 << 20)) {
      assertThat(drain(accumulator)).isEmpty();
    }
  }
}
