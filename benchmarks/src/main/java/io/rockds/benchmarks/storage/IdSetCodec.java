package io.rockds.benchmarks.storage;

/**
 * Encoding of a defined (under-limit) ID set stored as one RocksDB value in {@link IdListLayout}.
 */
interface IdSetCodec {

  /** Encodes IDs sorted ascending, without duplicates; never returns a one-byte array. */
  byte[] encode(long[] sortedIds);

  /** Returns {@code encoded} (null meaning empty) with {@code id} added. */
  byte[] add(byte[] encoded, long id);

  /** Number of IDs in {@code encoded}, read without decoding the whole set where possible. */
  int size(byte[] encoded);

  /** Decodes into the set type a search would intersect. */
  IndexRead decode(byte[] encoded);
}
