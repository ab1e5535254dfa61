package io.rockds.tools.backendstat;

import io.rockds.storage.Tree;
import io.rockds.tools.InstanceStorage;
import io.rockds.tools.TextTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code list-indexes}: every tree of the selected containers with its exact record count. */
@Command(
    name = "list-indexes",
    description =
        "Lists the trees (system trees and attribute indexes) of each base DN with their record counts.")
final class ListIndexes extends BackendStatCommand {
  @Mixin BackendSelection selection;

  @Override
  public Integer call() throws Exception {
    InstanceStorage storage = storage();
    int[] total = {0};
    forEachContainer(
        storage,
        selection,
        container -> {
          if (selection.baseDn == null) {
            note("Base DN: " + container.baseDn());
          }
          TextTable table = new TextTable("Index Name", "Raw DB Name", "Type", "Record Count");
          for (Tree tree : container.trees()) {
            table.row(tree.name(), tree.rawName(), tree.type(), tree.recordCount());
          }
          print(table);
          note("");
          total[0] += table.rowCount();
        });
    note("Total: " + total[0]);
    return 0;
  }
}
