package io.rockds.tools.backendstat;

import io.rockds.storage.AttributeIndex;
import io.rockds.storage.maintenance.IndexStatistics;
import io.rockds.storage.maintenance.IndexStats;
import io.rockds.storage.maintenance.KeyCount;
import io.rockds.tools.InstanceStorage;
import io.rockds.tools.TextTable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code show-index-status}: trust, size and entry-limit pressure of every attribute index, then
 * the keys over the limit. Beyond OpenDJ it names the over-limit keys that deletes have brought
 * back within the limit, which {@code rebuild-index --rebuildDegraded} makes useful again.
 *
 * <p>The 85% column counts keys at 85% of the limit or more (OpenDJ's counts 80%). Beyond OpenDJ,
 * the last two columns give the limit in force and the one the records were built with; when they
 * differ, a rebuild would tighten the index (it answers correctly meanwhile).
 */
@Command(
    name = "show-index-status",
    description =
        "Shows whether each index is valid, its record count and how many keys are over or near the"
            + " index-entry-limit, then lists the over-limit keys. Scans every index: may take a while.")
final class ShowIndexStatus extends BackendStatCommand {
  /** An index's statistics with what printing its keys needs. */
  private record Status(AttributeIndex index, IndexStats stats) {}

  @Mixin BackendSelection selection;

  @Override
  public Integer call() throws Exception {
    InstanceStorage storage = storage();
    TextTable table =
        new TextTable(
            "Index Name",
            "Raw DB Name",
            "Valid",
            "Confidential",
            "Record Count",
            "Over Entry Limit",
            "95%",
            "90%",
            "85%",
            "Entry Limit",
            "Built With Limit");
    List<String> tighten = new ArrayList<>();
    List<Status> withOverLimit = new ArrayList<>();
    forEachContainer(
        storage,
        selection,
        container -> {
          List<AttributeIndex> indexes = List.copyOf(container.indexes());
          List<IndexStats> stats = new IndexStatistics(container).of(indexes);
          for (int i = 0; i < indexes.size(); i++) {
            AttributeIndex index = indexes.get(i);
            IndexStats s = stats.get(i);
            table.row(
                index.name(),
                index.rawName(),
                s.trusted(),
                false,
                s.recordCount(),
                s.overLimitKeys().size(),
                s.keysAtPercent(95).size(),
                s.keysAtPercent(90).size(),
                s.keysAtPercent(85).size(),
                s.limit().limit(),
                s.builtWithLimit());
            if (s.trusted() && s.rebuildWouldTighten()) {
              tighten.add(index.name());
            }
            if (!s.overLimitKeys().isEmpty()) {
              withOverLimit.add(new Status(index, s));
            }
          }
        });
    print(table);
    note("Total: " + table.rowCount());
    if (!tighten.isEmpty()) {
      note(
          "Index-entry-limit changed since these indexes were built; they answer correctly, and a rebuild"
              + " (rebuild-index --rebuildDegraded) would tighten them: "
              + String.join(" ", tighten));
    }
    for (Status s : withOverLimit) {
      if (parent.scriptFriendly) {
        break;
      }
      out().println("Index: " + s.index().rawName());
      out()
          .println(
              "Over index-entry-limit keys: "
                  + keys(s.index(), s.stats().overLimitKeys(), k -> ""));
      if (!s.stats().recoverableKeys().isEmpty()) {
        out()
            .println(
                "Recoverable keys (back within the limit of "
                    + s.stats().limit()
                    + "; rebuild-index --rebuildDegraded lists their IDs again): "
                    + keys(s.index(), s.stats().recoverableKeys(), k -> " (" + k.count() + ")"));
      }
    }
    out().flush();
    return 0;
  }

  private static String keys(
      AttributeIndex index, List<KeyCount> keys, Function<KeyCount, String> suffix) {
    List<String> shown = new ArrayList<>();
    for (KeyCount k : keys) {
      shown.add("[" + index.keyToString(k.key().bytes()) + "]" + suffix.apply(k));
    }
    return String.join(" ", shown);
  }
}
