package io.rockds.tools.verify;

import static org.assertj.core.api.Assertions.assertThat;

import io.rockds.layout.Instance;
import io.rockds.tools.dsconfig.DsConfig;
import io.rockds.tools.fixtures.SampleInstance;
import io.rockds.tools.fixtures.ToolOutput;
import io.rockds.tools.rebuild.RebuildIndex;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;
import org.rocksdb.UInt64AddOperator;

/**
 * verify-index on the sample instance with index records removed through raw RocksDB (the clean
 * case runs beside a live server in {@code RunningServerIT}).
 */
class VerifyIndexTest {
  @TempDir Path dir;

  private static ToolOutput verify(Instance instance, String... args) {
    return ToolOutput.runOn(instance, new VerifyIndex(), SampleInstance.underBase(args));
  }

  private static ToolOutput rebuild(Instance instance, String... args) {
    return ToolOutput.runOn(instance, new RebuildIndex(), SampleInstance.underBase(args));
  }

  @Test
  void corruptedRecords_areEachReported_andRebuildRepairsThem() throws Exception {
    Instance instance = SampleInstance.copyTo(dir.resolve("corrupt"));
    deleteRawKeys(instance, "/dc=com,dc=example/uid.caseIgnoreMatch", "user.1");
    deleteRawKeys(instance, "/dc=com,dc=example/mail.caseIgnoreIA5Match", "user.2@example.com");

    ToolOutput o = verify(instance);
    assertThat(o.exitCode()).isEqualTo(VerifyIndex.INCONSISTENT);
    assertThat(o.out())
        .contains("uid.caseIgnoreMatch [user.1] entry ID 5: MISSING_ID")
        .contains("mail.caseIgnoreIA5Match [user.2@example.com] entry ID 6: MISSING_ID")
        .contains(": 2 inconsistencies.");

    ToolOutput uidOnly = verify(instance, "--clean", "--index", "uid");
    assertThat(uidOnly.exitCode()).isEqualTo(VerifyIndex.INCONSISTENT);
    assertThat(uidOnly.out()).contains("[user.1]").doesNotContain("[user.2@example.com]");

    ToolOutput rebuild =
        rebuild(instance, "--index", "uid", "--index", "mail.caseIgnoreIA5Match", "--quiet");
    assertThat(rebuild.exitCode()).as(rebuild.err()).isZero();
    assertThat(verify(instance, "--index", "uid", "--index", "mail").exitCode()).isZero();
  }

  @Test
  void vlvIndexesAreRebuiltAndVerifiedOffline() throws Exception {
    Instance instance = SampleInstance.copyTo(dir.resolve("vlv"));
    ToolOutput created =
        ToolOutput.run(
            DsConfig.command(),
            "--offline",
            "--instance",
            instance.root().toString(),
            "-n",
            "create-backend-vlv-index",
            "--backend-name",
            "userRoot",
            "--index-name",
            "byName",
            "--set",
            "base-dn:ou=People,dc=example,dc=com",
            "--set",
            "scope:single-level",
            "--set",
            "filter:(objectClass=person)",
            "--set",
            "sort-order:+sn");
    assertThat(created.exitCode()).as(created.err()).isZero();
    ToolOutput rebuild = rebuild(instance, "--index", "vlv.byName");
    assertThat(rebuild.exitCode()).as(rebuild.err()).isZero();
    assertThat(rebuild.out()).contains("vlv.byName");
    assertThat(verify(instance).exitCode()).isZero();

    clearRawTree(instance, "/dc=com,dc=example/vlv.byName");
    ToolOutput o = verify(instance, "--index", "vlv.byName");
    assertThat(o.exitCode()).isEqualTo(VerifyIndex.INCONSISTENT);
    assertThat(o.out()).contains("vlv.byName: ");
  }

  @Test
  void cleanNeedsOneIndex() {
    Instance instance = SampleInstance.copyTo(dir.resolve("usage"));
    ToolOutput o = verify(instance, "--clean");
    assertThat(o.exitCode()).isEqualTo(1);
    assertThat(o.err()).contains("--clean needs exactly one --index");
  }

  /** Deletes index records behind the storage layer's back, as a disk or software fault would. */
  static void deleteRawKeys(Instance instance, String columnFamily, String... keys)
      throws Exception {
    withRawTree(
        instance,
        columnFamily,
        (db, tree) -> {
          for (String key : keys) {
            byte[] raw = key.getBytes(StandardCharsets.UTF_8);
            assertThat(db.get(tree, raw)).isNotNull();
            db.delete(tree, raw);
          }
        });
  }

  /** Deletes every record of one tree, as a lost file would. */
  static void clearRawTree(Instance instance, String columnFamily) throws Exception {
    withRawTree(
        instance,
        columnFamily,
        (db, tree) -> {
          try (RocksIterator it = db.newIterator(tree)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
              db.delete(tree, it.key());
            }
          }
        });
  }

  private interface RawEdit {
    void apply(RocksDB db, ColumnFamilyHandle tree) throws Exception;
  }

  /** Opens the userRoot database with raw RocksDB and edits one of its trees. */
  private static void withRawTree(Instance instance, String columnFamily, RawEdit edit)
      throws Exception {
    String path = instance.root().resolve("db/userRoot").toString();
    List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
    // The counter trees need their merge operator should RocksDB compact them while open.
    try (Options options = new Options();
        UInt64AddOperator add = new UInt64AddOperator();
        ColumnFamilyOptions counters = new ColumnFamilyOptions().setMergeOperator(add);
        ColumnFamilyOptions plain = new ColumnFamilyOptions()) {
      List<String> names = new ArrayList<>();
      for (byte[] name : RocksDB.listColumnFamilies(options, path)) {
        String cf = new String(name, StandardCharsets.UTF_8);
        names.add(cf);
        boolean counter = cf.endsWith("/state") || cf.endsWith("/id2childrencount");
        descriptors.add(new ColumnFamilyDescriptor(name, counter ? counters : plain));
      }
      int index = names.indexOf(columnFamily);
      assertThat(index).as(columnFamily).isNotNegative();
      List<ColumnFamilyHandle> handles = new ArrayList<>();
      try (DBOptions dbOptions = new DBOptions();
          RocksDB db = RocksDB.open(dbOptions, path, descriptors, handles)) {
        try {
          edit.apply(db, handles.get(index));
        } finally {
          handles.forEach(ColumnFamilyHandle::close);
        }
      }
    }
  }
}
