package io.rockds.tools.backendstat;

import io.rockds.storage.EntryContainer;
import io.rockds.storage.Tree;
import io.rockds.tools.InstanceStorage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code dump-raw-db}: the bytes of one column family, with no decoding. */
@Command(
    name = "dump-raw-db",
    description = "Dumps the raw records of a column family as hexadecimal with ASCII alongside.")
final class DumpRawDb extends DumpCommand {
  @Option(
      names = {"-d", "--dbName"},
      required = true,
      paramLabel = "<rawDbName>",
      description =
          "Raw DB name as list-raw-dbs prints it, e.g. /dc=com,dc=example/sn.caseIgnoreMatch.")
  String dbName;

  @Option(
      names = {"-l", "--singleLine"},
      description = "One line per record: key and value in hexadecimal.")
  boolean singleLine;

  @Override
  public Integer call() throws Exception {
    InstanceStorage storage = storage();
    boolean[] found = {false};
    for (var config : selection.backends(storage)) {
      withBackend(
          storage,
          config,
          backend -> {
            for (EntryContainer container : backend.containers()) {
              for (Tree tree : container.trees()) {
                if (tree.rawName().equalsIgnoreCase(dbName)) {
                  found[0] = true;
                  dump(tree);
                }
              }
            }
          });
    }
    if (!found[0]) {
      throw new IllegalArgumentException(
          "-d " + dbName + ": no such raw DB (backendstat list-raw-dbs lists them)");
    }
    return 0;
  }

  private void dump(Tree tree) throws Exception {
    DumpOptions.Totals totals =
        dump.scan(
            tree,
            (key, value) -> {
              if (singleLine) {
                out().println(HexDump.line(key) + " " + HexDump.line(value));
              } else {
                out().println("Key (len " + key.length + "):");
                out().println(HexDump.lines(key, "  "));
                out().println("Value (len " + value.length + "):");
                out().println(HexDump.lines(value, "  "));
              }
            });
    out().println();
    out().println(totals.describe());
  }
}
