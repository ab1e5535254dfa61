package io.rockds.benchmarks.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;

/**
 * ID set as a serialized 32-bit {@link RoaringBitmap} (run containers optimized). IDs must stay
 * below 2^32, which this benchmark's IDs do; a real backend would need Roaring64 or ID recycling.
 * The serialized form starts with a 4-byte cookie, so it is never the one-byte over-limit marker.
 */
final class RoaringCodec implements IdSetCodec {

  @Override
  public byte[] encode(long[] sortedIds) {
    RoaringBitmap bitmap = new RoaringBitmap();
    for (long id : sortedIds) {
      bitmap.add(unsignedInt(id));
    }
    return serialize(bitmap);
  }

  @Override
  public byte[] add(byte[] encoded, long id) {
    RoaringBitmap bitmap = encoded == null ? new RoaringBitmap() : deserialize(encoded);
    bitmap.add(unsignedInt(id));
    return serialize(bitmap);
  }

  @Override
  public int size(byte[] encoded) {
    return new ImmutableRoaringBitmap(ByteBuffer.wrap(encoded)).getCardinality();
  }

  @Override
  public IndexRead decode(byte[] encoded) {
    return new IndexRead.Bitmap(deserialize(encoded));
  }

  /** RoaringBitmap treats ints as unsigned: IDs 0 to 2^32-1 fit. */
  private static int unsignedInt(long id) {
    if (id < 0 || id > 0xFFFF_FFFFL) {
      throw new IllegalArgumentException(
          "id: " + id + " (expected: 0 to 2^32-1 in a 32-bit RoaringBitmap)");
    }
    return (int) id;
  }

  private static RoaringBitmap deserialize(byte[] encoded) {
    RoaringBitmap bitmap = new RoaringBitmap();
    try {
      bitmap.deserialize(ByteBuffer.wrap(encoded));
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "corrupt RoaringBitmap value (" + encoded.length + " bytes)", e);
    }
    return bitmap;
  }

  private static byte[] serialize(RoaringBitmap bitmap) {
    bitmap.runOptimize();
    ByteBuffer out = ByteBuffer.allocate(bitmap.serializedSizeInBytes());
    bitmap.serialize(out);
    return out.array();
  }
}
