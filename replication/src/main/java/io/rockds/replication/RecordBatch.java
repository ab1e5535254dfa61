package io.rockds.replication;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Several records in one log entry (group commit), and the answers to them in its reply.
 *
 * <p>Format: the byte {@link #MARKER}, a version byte (1), the number of records (4 bytes), then
 * each record as its length (4 bytes) and its bytes. A record of the applier never begins with
 * {@link #MARKER} (see {@link RecordApplier}), so an entry holding one record as it is, as every
 * entry written before batches existed does, is still read as that one record.
 */
final class RecordBatch {
  /** The first byte of a batch; no record begins with it. */
  static final byte MARKER = (byte) 0xff;

  private static final byte VERSION = 1;

  private RecordBatch() {}

  /** Whether {@code entry} holds a batch rather than one record as it is. */
  static boolean isBatch(byte[] entry) {
    return entry.length > 0 && entry[0] == MARKER;
  }

  static byte[] encode(List<byte[]> records) {
    int size = 2 + 4;
    for (byte[] record : records) {
      size += 4 + record.length;
    }
    ByteBuffer out = ByteBuffer.allocate(size).put(MARKER).put(VERSION).putInt(records.size());
    for (byte[] record : records) {
      out.putInt(record.length).put(record);
    }
    return out.array();
  }

  /** The records of an entry: a batch's, or the entry itself when it holds one record. */
  static List<byte[]> decode(byte[] entry) {
    if (!isBatch(entry)) {
      return List.of(entry);
    }
    ByteBuffer in = ByteBuffer.wrap(entry);
    in.get();
    int version = in.get();
    if (version != VERSION) {
      throw new IllegalStateException(
          "a log entry of batch format version " + version + " is not known to this server");
    }
    int count = in.getInt();
    if (count < 0 || count > in.remaining() / 4) {
      throw new IllegalStateException("a corrupt batch of " + count + " records");
    }
    List<byte[]> records = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int length = in.getInt();
      if (length < 0 || length > in.remaining()) {
        throw new IllegalStateException("a corrupt batch: record " + i + " of length " + length);
      }
      byte[] record = new byte[length];
      in.get(record);
      records.add(record);
    }
    return records;
  }
}
