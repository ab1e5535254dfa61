package io.rockds.benchmarks.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.rocksdb.RocksDBException;

/** Every layout variant against a real RocksDB, with an entry limit of 3 to reach it quickly. */
class IndexLayoutTest {

  private static final int LIMIT = 3;
  private static final byte[] HOT = SyntheticDirectory.key("objectClass", "top");
  private static final byte[] NEAR = SyntheticDirectory.key("sn", "jensen");
  private static final byte[] RARE = SyntheticDirectory.key("uid", "user.7");

  private BenchmarkDatabase database;

  @AfterEach
  void close() {
    database.close();
  }

  private IndexLayout open(LayoutVariant variant) throws RocksDBException {
    database = BenchmarkDatabase.openTemporary(false);
    return variant.open(database, LIMIT);
  }

  @ParameterizedTest
  @EnumSource(LayoutVariant.class)
  void read_returnsAddedIdsInOrderUpToTheLimit(LayoutVariant variant) throws RocksDBException {
    IndexLayout layout = open(variant);
    layout.addEntry(300, List.of(HOT, NEAR));
    layout.addEntry(7, List.of(HOT, NEAR, RARE));
    layout.addEntry(20, List.of(HOT, NEAR));

    assertThat(ids(layout.read(NEAR))).containsExactly(7, 20, 300);
    assertThat(ids(layout.read(RARE))).containsExactly(7);
    assertThat(ids(layout.read(SyntheticDirectory.key("uid", "absent")))).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(LayoutVariant.class)
  void read_isOverLimitOncePastTheLimit_evenAfterCompaction(LayoutVariant variant)
      throws RocksDBException {
    IndexLayout layout = open(variant);
    for (long id = 1; id <= LIMIT + 2; id++) {
      layout.addEntry(id, List.of(HOT));
    }
    database.compact();

    assertThat(layout.read(HOT)).isEqualTo(IndexRead.OverLimit.INSTANCE);
  }

  @ParameterizedTest
  @EnumSource(LayoutVariant.class)
  void entryLimitReport_listsOverLimitKeysAndCountsKeysAtTheLimit(LayoutVariant variant)
      throws RocksDBException {
    IndexLayout layout = open(variant);
    for (long id = 1; id <= LIMIT + 1; id++) {
      layout.addEntry(id, id <= LIMIT ? List.of(HOT, NEAR) : List.of(HOT));
    }
    layout.addEntry(99, List.of(RARE));

    EntryLimitReport report = layout.entryLimitReport();

    assertThat(report.overLimitKeys()).containsExactly("objectClass:top");
    assertThat(report.atOrAbove95()).isEqualTo(1);
    assertThat(report.atOrAbove85()).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(LayoutVariant.class)
  void load_writesTheSameStateAsAddingOneByOne(LayoutVariant variant) throws RocksDBException {
    IndexLayout layout = open(variant);
    layout.load(NEAR, new long[] {4, 5, 6});
    layout.load(HOT, new long[] {1, 2, 3, 4});

    assertThat(ids(layout.read(NEAR))).containsExactly(4, 5, 6);
    assertThat(layout.read(HOT)).isEqualTo(IndexRead.OverLimit.INSTANCE);
  }

  private static long[] ids(IndexRead read) {
    if (read instanceof IndexRead.Bitmap bitmap) {
      return bitmap.ids().stream().mapToLong(Integer::toUnsignedLong).toArray();
    }
    assertThat(read).isInstanceOf(IndexRead.Ids.class);
    return ((IndexRead.Ids) read).ids();
  }
}
