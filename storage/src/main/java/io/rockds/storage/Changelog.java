package io.rockds.storage;

import com.unboundid.ldap.sdk.LDAPException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

/**
 * The changelog of one backend: one record per change applied to it, written by the batch that
 * applies the change ({@link Backend#recording}), so a change and its record are durable together
 * and part of every checkpoint of the database. Keys are change numbers as 8 big-endian bytes, so
 * key order is number order and a range of numbers is one seek. A value is the change's time (epoch
 * milliseconds, what purging by age reads) followed by a description the server encodes.
 */
public final class Changelog {
  /** The column family holding it, beside the containers' trees. */
  static final String TREE = "changelog";

  private final Backend backend;
  private final RocksDB db;
  private final ColumnFamilyHandle handle;

  /**
   * One change.
   *
   * @param number its change number
   * @param timeMillis when it was made
   * @param description what the server wrote of it
   */
  public record Record(long number, long timeMillis, byte[] description) {}

  /** Receives records in number order; returns false to stop. */
  @FunctionalInterface
  public interface Visitor {
    boolean visit(Record record) throws LDAPException;
  }

  Changelog(Backend backend, RocksDB db, ColumnFamilyHandle handle) {
    this.backend = backend;
    this.db = db;
    this.handle = handle;
  }

  /** The smallest change number held, or -1 when empty. */
  public long first() {
    try (RocksIterator it = db.newIterator(handle)) {
      it.seekToFirst();
      return it.isValid() ? Bytes.readLongKey(it.key(), 0) : -1;
    }
  }

  /** The largest change number held, or -1 when empty. */
  public long last() {
    return lastAtOrBefore(Long.MAX_VALUE);
  }

  /** The largest change number held that is at most {@code bound}, or -1 when none is. */
  public long lastAtOrBefore(long bound) {
    try (RocksIterator it = db.newIterator(handle)) {
      it.seekForPrev(Bytes.longKey(bound));
      return it.isValid() ? Bytes.readLongKey(it.key(), 0) : -1;
    }
  }

  /**
   * The largest change number in the changelog of the closed backend database at {@code directory},
   * or 0 when it holds none (or there is no database there): read before a restore replaces the
   * database, so that later changes are numbered above every number it gave.
   */
  public static long lastStoredIn(Path directory) throws IOException {
    if (!Files.exists(directory.resolve("CURRENT"))) {
      return 0;
    }
    RocksDB.loadLibrary();
    List<ColumnFamilyDescriptor> families = new ArrayList<>();
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    try (Options probe = new Options();
        DBOptions options = new DBOptions()) {
      for (byte[] name : RocksDB.listColumnFamilies(probe, directory.toString())) {
        families.add(new ColumnFamilyDescriptor(name));
      }
      try (RocksDB db = RocksDB.openReadOnly(options, directory.toString(), families, handles)) {
        long last = 0;
        for (int i = 0; i < families.size(); i++) {
          if (Arrays.equals(families.get(i).getName(), TREE.getBytes(StandardCharsets.UTF_8))) {
            try (RocksIterator it = db.newIterator(handles.get(i))) {
              it.seekToLast();
              last = it.isValid() ? Bytes.readLongKey(it.key(), 0) : 0;
            }
          }
        }
        return last;
      } finally {
        handles.forEach(ColumnFamilyHandle::close);
      }
    } catch (RocksDBException e) {
      throw new IOException("cannot read the database at " + directory + ": " + e.getMessage(), e);
    }
  }

  /** The record of change {@code number}, or null. */
  public Record get(long number) throws LDAPException {
    try {
      byte[] value = db.get(handle, Bytes.longKey(number));
      return value == null ? null : decode(number, value);
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    }
  }

  /** Visits the records numbered {@code from} to {@code to} (both included) in number order. */
  public void visit(long from, long to, Visitor visitor) throws LDAPException {
    if (from > to) {
      return;
    }
    try (RocksIterator it = db.newIterator(handle)) {
      for (it.seek(Bytes.longKey(Math.max(0, from))); it.isValid(); it.next()) {
        long number = Bytes.readLongKey(it.key(), 0);
        if (number > to || !visitor.visit(decode(number, it.value()))) {
          return;
        }
      }
    }
  }

  /**
   * Deletes the records of changes made before {@code cutoffMillis}, except the newest record,
   * which stays so that numbering goes on from it after a restart. Returns how many were deleted.
   */
  public long purgeOlderThan(long cutoffMillis) throws LDAPException {
    long newest = last();
    long first = -1;
    long end = -1;
    long count = 0;
    try (RocksIterator it = db.newIterator(handle)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        long number = Bytes.readLongKey(it.key(), 0);
        if (number >= newest || timeOf(it.value()) >= cutoffMillis) {
          break;
        }
        if (first < 0) {
          first = number;
        }
        end = number + 1;
        count++;
      }
    }
    if (count > 0) {
      try (WriteBatch batch = new WriteBatch()) {
        batch.deleteRange(handle, Bytes.longKey(first), Bytes.longKey(end));
        backend.write(batch);
      } catch (RocksDBException e) {
        throw StorageErrors.wrap(e);
      }
    }
    return count;
  }

  void put(WriteBatch batch, long number, long timeMillis, byte[] description)
      throws RocksDBException {
    byte[] value =
        ByteBuffer.allocate(8 + description.length).putLong(timeMillis).put(description).array();
    batch.put(handle, Bytes.longKey(number), value);
  }

  private static long timeOf(byte[] value) {
    return ByteBuffer.wrap(value, 0, 8).getLong();
  }

  private static Record decode(long number, byte[] value) {
    byte[] description = new byte[value.length - 8];
    System.arraycopy(value, 8, description, 0, description.length);
    return new Record(number, timeOf(value), description);
  }
}
