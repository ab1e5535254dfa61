package io.rockds.benchmarks.storage;

/**
 * The index layouts and value encodings under measurement, by the names the benchmarks take (public
 * because JMH's generated code sets it as a {@code @Param}).
 */
public enum LayoutVariant {
  /** Layout 1, delta-varint ID sets. */
  ID_LIST_VARINT {
    @Override
    IndexLayout open(BenchmarkDatabase database, int limit) {
      return new IdListLayout(database, new DeltaVarintCodec(), limit, false);
    }
  },
  /** Layout 1, delta-varint ID sets, plus a merge counter for each over-limit key. */
  ID_LIST_VARINT_COUNTED {
    @Override
    IndexLayout open(BenchmarkDatabase database, int limit) {
      return new IdListLayout(database, new DeltaVarintCodec(), limit, true);
    }
  },
  /** Layout 1, serialized RoaringBitmap ID sets. */
  ID_LIST_ROARING {
    @Override
    IndexLayout open(BenchmarkDatabase database, int limit) {
      return new IdListLayout(database, new RoaringCodec(), limit, false);
    }
  },
  /** Layout 2, no counters: reads and reports count the records themselves. */
  KEY_PER_ID {
    @Override
    IndexLayout open(BenchmarkDatabase database, int limit) {
      return new KeyPerIdLayout(database, limit, false);
    }
  },
  /** Layout 2 with a merge counter for every key. */
  KEY_PER_ID_COUNTED {
    @Override
    IndexLayout open(BenchmarkDatabase database, int limit) {
      return new KeyPerIdLayout(database, limit, true);
    }
  };

  /** OpenDJ's default index-entry-limit. */
  static final int DEFAULT_ENTRY_LIMIT = 4000;

  abstract IndexLayout open(BenchmarkDatabase database, int limit);
}
