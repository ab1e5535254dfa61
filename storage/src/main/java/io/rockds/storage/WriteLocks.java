package io.rockds.storage;

import com.unboundid.ldap.sdk.DN;
import java.util.Arrays;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The locks of one entry container's writes: DN stripes (so writes on one DN, and a child's add
 * against its parent's delete, are serialized), index key stripes (held from an index record's read
 * to the commit of its new value), and the index structure lock.
 */
final class WriteLocks {
  private final KeyLocks dnLocks = new KeyLocks(1024);
  private final KeyLocks indexLocks = new KeyLocks(4096);

  /**
   * Every write holds the read side from ID allocation to commit; clearing an index for a rebuild
   * or changing its limit takes the write side, so no read-modify-write of an index record and no
   * blind over-limit merge can straddle that change.
   */
  private final ReentrantReadWriteLock indexStructure = new ReentrantReadWriteLock();

  Lock lockStructure() {
    Lock lock = indexStructure.readLock();
    lock.lock();
    return lock;
  }

  Lock lockStructureExclusively() {
    Lock lock = indexStructure.writeLock();
    lock.lock();
    return lock;
  }

  KeyLocks dnLocks() {
    return dnLocks;
  }

  KeyLocks indexLocks() {
    return indexLocks;
  }

  /** The DN lock stripe of each DN, in the order given. */
  int[] stripes(DN... dns) {
    int[] s = new int[dns.length];
    for (int i = 0; i < dns.length; i++) {
      s[i] = dnLocks.stripeOf(Arrays.hashCode(DnKeys.key(dns[i])));
    }
    return s;
  }
}
