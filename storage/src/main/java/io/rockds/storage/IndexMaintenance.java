package io.rockds.storage;

import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongConsumer;
import org.rocksdb.RocksDBException;

/**
 * Changes to the indexes of one entry container while it runs: a new index, a rebuild (a new entry
 * limit needs none: {@link IndexEntryLimits}). Each takes the structure lock exclusively where
 * writes must not straddle it, and records trust and limits in the state tree.
 */
final class IndexMaintenance {
  private final EntryContainer container;
  private final ContainerIndexes indexes;
  private final ReentrantLock rebuilding = new ReentrantLock();

  IndexMaintenance(EntryContainer container, ContainerIndexes indexes) {
    this.container = container;
    this.indexes = indexes;
  }

  /** Adds a freshly created index: trusted only if the container is empty. */
  void addIndex(AttributeIndex index) throws RocksDBException {
    BackendState state = container.state();
    Lock exclusive = container.locks().lockStructureExclusively();
    try {
      boolean trusted = state.entryCount() == 0;
      index.markBuilt(state);
      state.setTrusted(index.name(), trusted);
      index.setTrustedFlag(trusted);
      indexes.add(index);
    } finally {
      exclusive.unlock();
    }
  }

  /** See {@link EntryContainer#rebuildIndexes}. */
  void rebuildIndexes(Collection<AttributeIndex> toRebuild, LongConsumer progress)
      throws LDAPException {
    container.requireWritable("rebuilding indexes");
    for (AttributeIndex index : toRebuild) {
      requireIndex(index.name());
    }
    if (!rebuilding.tryLock()) {
      throw new LDAPException(
          ResultCode.BUSY, "another index rebuild of " + container.baseDn() + " is running");
    }
    try {
      new IndexBuild(container, List.copyOf(toRebuild)).run(progress);
    } finally {
      rebuilding.unlock();
    }
  }

  private AttributeIndex requireIndex(String name) throws LDAPException {
    AttributeIndex index = indexes.named(name);
    if (index == null) {
      throw new LDAPException(
          ResultCode.NO_SUCH_OBJECT,
          "no index "
              + name
              + " in "
              + container.baseDn()
              + " (expected one of: "
              + String.join(", ", indexes.names())
              + ")");
    }
    return index;
  }
}
