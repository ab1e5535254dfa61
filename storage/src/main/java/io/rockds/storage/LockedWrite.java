package io.rockds.storage;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.Lock;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * One write of an entry container, prepared under its locks and committed as one atomic batch. The
 * DN lock stripes of the entries it names and the read side of the index structure lock are held
 * from its first read to its commit, so no other write of those DNs and no index rebuild straddles
 * it. The operation puts its records into {@link #batch()}, its index changes into {@link
 * #updates()}, and names the entries it {@link #touch}es, which leave the entry cache once
 * committed.
 */
final class LockedWrite {
  /** What an operation does under the locks; it may throw to commit nothing. */
  interface Work<T> {
    T apply(LockedWrite write) throws RocksDBException, LDAPException;
  }

  private final WriteLocks locks;
  private final int[] dnStripes;
  private final WriteBatch batch;
  private final IndexUpdates updates = new IndexUpdates();
  private final List<Long> touched = new ArrayList<>();
  private boolean abandoned;

  private LockedWrite(WriteLocks locks, int[] dnStripes, WriteBatch batch) {
    this.locks = locks;
    this.dnStripes = dnStripes;
    this.batch = batch;
  }

  /** Runs {@code work} under the locks of {@code dns} and commits what it prepared. */
  static <T> T run(EntryContainer container, DN[] dns, Work<T> work) throws LDAPException {
    WriteLocks locks = container.locks();
    int[] locked = locks.dnLocks().lock(locks.stripes(dns));
    Lock structure = locks.lockStructure();
    try (WriteBatch batch = new WriteBatch()) {
      LockedWrite write = new LockedWrite(locks, locked, batch);
      T result = work.apply(write);
      if (!write.abandoned) {
        container.commit(batch, write.updates);
        for (long id : write.touched) {
          container.backend().invalidate(id);
        }
      }
      return result;
    } catch (RocksDBException e) {
      throw StorageErrors.wrap(e);
    } finally {
      structure.unlock();
      locks.dnLocks().unlock(locked);
    }
  }

  WriteBatch batch() {
    return batch;
  }

  IndexUpdates updates() {
    return updates;
  }

  /** Entry {@code id} changes: its cached copy is dropped after the commit. */
  void touch(long id) {
    touched.add(id);
  }

  /**
   * Whether this write holds the lock of {@code dn}: false for an entry that moved under a DN not
   * named when the locks were taken (a subtree listed before locking changed meanwhile).
   */
  boolean holdsLockOf(DN dn) {
    return Arrays.binarySearch(dnStripes, locks.stripes(dn)[0]) >= 0;
  }

  /** Commit nothing: the caller found the locks insufficient and retries with others. */
  void abandon() {
    abandoned = true;
  }
}
