package io.rockds.storage;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** An index key's bytes with value semantics and unsigned byte order (RocksDB's order). */
public record IndexKey(byte[] bytes) implements Comparable<IndexKey> {

  public static IndexKey of(String utf8) {
    return new IndexKey(utf8.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof IndexKey other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public int compareTo(IndexKey o) {
    return Arrays.compareUnsigned(bytes, o.bytes);
  }

  /** The key as backendstat shows it: UTF-8 text. */
  @Override
  public String toString() {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
