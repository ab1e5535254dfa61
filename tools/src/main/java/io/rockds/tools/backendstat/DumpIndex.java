package io.rockds.tools.backendstat;

import io.rockds.storage.EntryContainer;
import io.rockds.storage.Tree;
import io.rockds.tools.InstanceStorage;
import java.util.HexFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code dump-index}: the records of one tree of a container, decoded by the tree itself. */
@Command(
    name = "dump-index",
    description = "Dumps the records of an index (or any tree listed by list-indexes), decoded.")
final class DumpIndex extends DumpCommand {
  @Option(
      names = {"-i", "--indexName"},
      required = true,
      paramLabel = "<name>",
      description = "Index name as list-indexes prints it, e.g. sn.caseIgnoreMatch or dn2id.")
  String indexName;

  @Option(
      names = {"-p", "--skipDecode"},
      description = "Print keys and values in hexadecimal instead of decoded.")
  boolean skipDecode;

  @Override
  public Integer call() throws Exception {
    InstanceStorage storage = storage();
    if (selection.baseDn() == null) {
      throw new IllegalArgumentException("-b <baseDN> is required");
    }
    withBackend(
        storage,
        selection.backend(storage),
        backend -> {
          EntryContainer container = InstanceStorage.containers(backend, selection.baseDn()).get(0);
          Tree tree =
              container.trees().stream()
                  .filter(t -> t.name().equalsIgnoreCase(indexName))
                  .findFirst()
                  .orElseThrow(
                      () ->
                          new IllegalArgumentException(
                              "-i "
                                  + indexName
                                  + ": no such index under "
                                  + container.baseDn()
                                  + " (backendstat list-indexes lists them)"));
          DumpOptions.Totals totals =
              dump.scan(
                  tree,
                  (key, value) -> {
                    out()
                        .println(
                            "Key (len "
                                + key.length
                                + "): "
                                + (skipDecode ? hex(key) : tree.keyToString(key)));
                    out()
                        .println(
                            "Value (len "
                                + value.length
                                + "): "
                                + (skipDecode ? hex(value) : tree.valueToString(value)));
                  });
          out().println();
          out().println(totals.describe());
        });
    return 0;
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }
}
