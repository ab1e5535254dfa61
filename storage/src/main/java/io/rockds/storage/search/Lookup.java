package io.rockds.storage.search;

import com.unboundid.ldap.sdk.LDAPException;
import org.rocksdb.RocksDBException;

/**
 * One planned step of candidate building: usually one index read, sometimes a nested filter. The
 * plan is built first and run later so that an intersection can order its steps by cost and skip
 * the rest once the set is small.
 *
 * @param category how expensive the step is; an intersection runs cheaper categories first
 * @param filterLabel the filter text the step stands for, or null when it is one of several steps
 *     of one filter (a substring filter's n-gram keys)
 */
record Lookup(Category category, String filterLabel, Runner runner) {
  /** Cost classes in the order an intersection runs them (OpenDJ: fast, other, range). */
  enum Category {
    /**
     * One key: equality, presence, approximate, indexed extensible; or unindexed (no read at all).
     */
    FAST,
    /** One n-gram key of a substring filter. */
    SUBSTRING_EXACT,
    /** A key-range scan of a substring tree for a fragment shorter than the key length. */
    SUBSTRING_RANGE,
    /** A nested OR filter: several reads of its own. */
    OTHER,
    /** {@code >=} / {@code <=} ranges and subInitial ranges on equality trees: many keys. */
    RANGE
  }

  @FunctionalInterface
  interface Runner {
    Evaluated run(String filterLabel) throws RocksDBException, LDAPException;
  }

  Evaluated run() throws RocksDBException, LDAPException {
    return runner.run(filterLabel);
  }

  Lookup labelled(String label) {
    return new Lookup(category, label, runner);
  }
}
