package io.rockds.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.schema.Schema;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.TickerType;

/** The applied log position is stored by the batch that applies a record, and only by it. */
class LogPositionTest {
  @TempDir Path dir;

  @Test
  void thePositionIsDurableWithTheChangeItApplied() throws Exception {
    try (Backend backend = StorageFixtures.open(dir, 4000)) {
      assertThat(backend.appliedPosition()).isEqualTo(LogPosition.NONE);
      EntryContainer c = backend.containerFor(StorageFixtures.BASE);
      StorageFixtures.addTree(c);
      assertThat(backend.appliedPosition()).isEqualTo(LogPosition.NONE);
      backend.applying(
          new LogPosition(2, 7, 0),
          -1,
          () -> {
            c.add(StorageFixtures.person(1, "Jensen"));
            return null;
          });
      assertThat(backend.appliedPosition()).isEqualTo(new LogPosition(2, 7, 0));
      // A refused change writes no batch, so it records no position either.
      assertThatThrownBy(
              () ->
                  backend.applying(
                      new LogPosition(2, 8, 0),
                      -1,
                      () -> {
                        c.add(StorageFixtures.person(1, "Jensen"));
                        return null;
                      }))
          .isInstanceOf(LDAPException.class);
      assertThat(backend.appliedPosition()).isEqualTo(new LogPosition(2, 7, 0));
    }
    try (Backend reopened = StorageFixtures.open(dir, 4000)) {
      assertThat(reopened.appliedPosition()).isEqualTo(new LogPosition(2, 7, 0));
      assertThat(new LogPosition(2, 7, 0).notAfter(reopened.appliedPosition())).isTrue();
      assertThat(new LogPosition(3, 8, 0).notAfter(reopened.appliedPosition())).isFalse();
    }
  }

  /**
   * A batch that applies a log record is not synced, a local write of a syncing backend is: the
   * replication log is the record's durable copy, and one fsync per applied record on the single
   * apply thread would cap a group at the disk's fsync rate.
   */
  @Test
  void onlyWritesOutsideTheLogSyncTheWal() throws Exception {
    try (Backend backend =
        Backend.open(
            StorageFixtures.settings(dir, 4000).withSyncWrites(true),
            Schema.getDefaultStandardSchema())) {
      EntryContainer c = backend.containerFor(StorageFixtures.BASE);
      StorageFixtures.addTree(c);
      long synced = walSyncs(backend);
      assertThat(synced).as("the local writes of the tree").isPositive();
      for (int i = 1; i <= 20; i++) {
        long person = i;
        backend.applying(
            new LogPosition(1, i, 0),
            -1,
            () -> {
              c.add(StorageFixtures.person(person, "Jensen"));
              return null;
            });
      }
      assertThat(walSyncs(backend)).isEqualTo(synced);
      assertThat(backend.appliedPosition()).isEqualTo(new LogPosition(1, 20, 0));
      c.add(StorageFixtures.person(21, "Jensen"));
      assertThat(walSyncs(backend)).isGreaterThan(synced);
    }
  }

  /**
   * Records sharing a log entry are told apart by their slot, so a replay that stops in the middle
   * of an entry skips exactly the records before; a position stored before entries held several
   * records (16 bytes) reads as its entry's only record.
   */
  @Test
  void recordsOfOneEntryAreOrderedByTheirSlot() {
    LogPosition stored = new LogPosition(3, 10, 2);
    assertThat(LogPosition.decode(stored.encode())).isEqualTo(stored);
    assertThat(new LogPosition(3, 10, 1).notAfter(stored)).isTrue();
    assertThat(new LogPosition(3, 10, 2).notAfter(stored)).isTrue();
    assertThat(new LogPosition(3, 10, 3).notAfter(stored)).isFalse();
    assertThat(new LogPosition(3, 9, 200).notAfter(stored)).isTrue();
    assertThat(new LogPosition(3, 11, 0).notAfter(stored)).isFalse();
    byte[] before = ByteBuffer.allocate(16).putLong(2).putLong(7).array();
    assertThat(LogPosition.decode(before)).isEqualTo(new LogPosition(2, 7, 0));
  }

  private static long walSyncs(Backend backend) {
    return backend.statistics().getTickerCount(TickerType.WAL_FILE_SYNCED);
  }
}
