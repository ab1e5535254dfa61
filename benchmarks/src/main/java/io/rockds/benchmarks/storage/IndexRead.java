package io.rockds.benchmarks.storage;

import org.roaringbitmap.RoaringBitmap;

/** What reading one index key yields: its IDs, decoded, or "over the entry limit" (all entries). */
sealed interface IndexRead {

  /** Number of IDs, or -1 when the key is over the entry limit. */
  int size();

  /** The key holds more IDs than the entry limit; a search must treat it as "all entries". */
  record OverLimit() implements IndexRead {
    static final OverLimit INSTANCE = new OverLimit();

    @Override
    public int size() {
      return -1;
    }
  }

  /** The IDs as a sorted array (delta-varint values and prefix scans decode into this). */
  record Ids(long[] ids) implements IndexRead {
    @Override
    public int size() {
      return ids.length;
    }
  }

  /** The IDs as a bitmap (RoaringBitmap values decode into this). */
  record Bitmap(RoaringBitmap ids) implements IndexRead {
    @Override
    public int size() {
      return ids.getCardinality();
    }
  }
}
