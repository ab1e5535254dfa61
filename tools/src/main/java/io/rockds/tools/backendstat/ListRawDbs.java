package io.rockds.tools.backendstat;

import io.rockds.config.BackendConfig;
import io.rockds.storage.Backend;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.Tree;
import io.rockds.tools.InstanceStorage;
import io.rockds.tools.TextTable;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.RocksIterator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code list-raw-dbs}: every column family with its key and value bytes (a full scan, so the
 * logical sizes before compression), then the RocksDB table files that hold them on disk.
 */
@Command(
    name = "list-raw-dbs",
    description =
        "Lists the RocksDB column families with their key counts and sizes, then the SST files.")
final class ListRawDbs extends BackendStatCommand {
  @Mixin BackendSelection selection;

  @Option(
      names = {"-u", "--useSIUnits"},
      description = "Print sizes with SI units (KB, MB, GB).")
  boolean siUnits;

  @Override
  public Integer call() throws Exception {
    InstanceStorage storage = storage();
    for (BackendConfig config : selection.backends(storage)) {
      withBackend(
          storage,
          config,
          backend -> {
            TextTable table =
                new TextTable(
                    "Raw DB Name", "Total Keys", "Keys Size", "Values Size", "Total Size");
            for (EntryContainer container :
                InstanceStorage.containers(backend, selection.baseDn())) {
              for (Tree tree : container.trees()) {
                long keys = 0;
                long keyBytes = 0;
                long valueBytes = 0;
                try (RocksIterator it = tree.newIterator()) {
                  for (it.seekToFirst(); it.isValid(); it.next()) {
                    keys++;
                    keyBytes += it.key().length;
                    valueBytes += it.value().length;
                  }
                }
                table.row(
                    tree.rawName(),
                    keys,
                    size(keyBytes),
                    size(valueBytes),
                    size(keyBytes + valueBytes));
              }
            }
            print(table);
            note("");
            note("Total: " + table.rowCount());
            note("");
            printTableFiles(backend);
          });
    }
    return 0;
  }

  private void printTableFiles(Backend backend) {
    List<LiveFileMetaData> files =
        backend.rocksDb().getLiveFilesMetaData().stream()
            .sorted(Comparator.comparing(LiveFileMetaData::fileName))
            .toList();
    TextTable table = new TextTable("SST File", "Raw DB Name", "Level", "Entries", "File Size");
    long bytes = 0;
    for (LiveFileMetaData file : files) {
      table.row(
          file.fileName().replaceFirst("^/", ""),
          new String(file.columnFamilyName(), StandardCharsets.UTF_8),
          file.level(),
          file.numEntries(),
          size(file.size()));
      bytes += file.size();
    }
    print(table);
    note("");
    note(
        "Total: "
            + table.rowCount()
            + " SST files, "
            + size(bytes)
            + " (records still in the write-ahead log are in no SST file yet)");
  }

  private String size(long bytes) {
    if (!siUnits) {
      return Long.toString(bytes);
    }
    String[] units = {"B", "KB", "MB", "GB", "TB"};
    double value = bytes;
    int unit = 0;
    while (value >= 1000 && unit < units.length - 1) {
      value /= 1000;
      unit++;
    }
    return unit == 0
        ? bytes + " B"
        : String.format(java.util.Locale.ROOT, "%.1f %s", value, units[unit]);
  }
}
