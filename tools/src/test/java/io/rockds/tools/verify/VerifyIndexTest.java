package io.rockds.tools.verify;

import static org.assertj.core.api.Assertions.assertThat;

import io.rockds.instance.Instance;
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
import org.rocksdb.UInt64AddOperator;

/**
 * verify-index on the sample instance with index records removed through raw RocksDB (the clean
 * case runs beside a live server in {@code RunningServerIT}).
 */
class VerifyIndexTest {
  @TempDir Path dir;

  private static ToolOutput verify(Instance instance, String... args) {
    List<String> all =
        new ArrayList<>(
            List.of("--instance", instance.root().toString(), "-b", "dc=example,dc=com"));
    all.addAll(List.of(args));
    return ToolOutput.run(new VerifyIndex(), all.toArray(String[]::new));
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
        ToolOutput.run(
            new RebuildIndex(),
            "--instance",
            instance.root().toString(),
            "-b",
            "dc=example,dc=com",
            "--index",
            "uid",
            "--index",
            "mail.caseIgnoreIA5Match",
            "--quiet");
    assertThat(rebuild.exitCode()).as(rebuild.err()).isZero();
    assertThat(verify(instance, "--index", "uid", "--index", "mail").exitCode()).isZero();
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
    String path = instance.root().resolve("db/userRoot").toString();
    List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
    // The counter trees need their merge operator should RocksDB compact them while open.
    try (Options options = new Options();
        UInt64AddOperator add = new UInt64AddOperator();
        ColumnFamilyOptions counters = new ColumnFamilyOptions().setMergeOperator(add);
        ColumnFamilyOptions plain = new ColumnFamilyOptions()) {
      for (byte[] name : RocksDB.listColumnFamilies(options, path)) {
        String cf = new String(name, StandardCharsets.UTF_8);
        boolean counter = cf.endsWith("/state") || cf.endsWith("/id2childrencount");
        descriptors.add(new ColumnFamilyDescriptor(name, counter ? counters : plain));
      }
      deleteKeys(path, descriptors, columnFamily, keys);
    }
  }

  private static void deleteKeys(
      String path, List<ColumnFamilyDescriptor> descriptors, String columnFamily, String... keys)
      throws Exception {
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    try (DBOptions options = new DBOptions();
        RocksDB db = RocksDB.open(options, path, descriptors, handles)) {
      try {
        for (int i = 0; i < descriptors.size(); i++) {
          if (new String(descriptors.get(i).getName(), StandardCharsets.UTF_8)
              .equals(columnFamily)) {
            for (String key : keys) {
              assertThat(db.get(handles.get(i), key.getBytes(StandardCharsets.UTF_8))).isNotNull();
              db.delete(handles.get(i), key.getBytes(StandardCharsets.UTF_8));
            }
          }
        }
      } finally {
        handles.forEach(ColumnFamilyHandle::close);
      }
    }
  }
}
