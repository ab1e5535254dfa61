package io.rockds.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.schema.Schema;
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
          new LogPosition(2, 7),
          () -> {
            c.add(StorageFixtures.person(1, "Jensen"));
            return null;
          });
      assertThat(backend.appliedPosition()).isEqualTo(new LogPosition(2, 7));
      // A refused change writes no batch, so it records no position either.
      assertThatThrownBy(
              () ->
                  backend.applying(
                      new LogPosition(2, 8),
                      () -> {
                        c.add(StorageFixtures.person(1, "Jensen"));
                        return null;
                      }))
          .isInstanceOf(LDAPException.class);
      assertThat(backend.appliedPosition()).isEqualTo(new LogPosition(2, 7));
    }
    try (Backend reopened = StorageFixtures.open(dir, 4000)) {
      assertThat(reopened.appliedPosition()).isEqualTo(new LogPosition(2, 7));
      assertThat(new LogPosition(2, 7).notAfter(reopened.appliedPosition())).isTrue();
      assertThat(new LogPosition(3, 8).notAfter(reopened.appliedPosition())).isFalse();
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
            new LogPosition(1, i),
            () -> {
              c.add(StorageFixtures.person(person, "Jensen"));
              return null;
            });
      }
      assertThat(walSyncs(backend)).isEqualTo(synced);
      assertThat(backend.appliedPosition()).isEqualTo(new LogPosition(1, 20));
      c.add(StorageFixtures.person(21, "Jensen"));
      assertThat(walSyncs(backend)).isGreaterThan(synced);
    }
  }

  private static long walSyncs(Backend backend) {
    return backend.statistics().getTickerCount(TickerType.WAL_FILE_SYNCED);
  }
}
