package io.rockds.tools.backendstat;

import io.rockds.config.BackendConfig;
import io.rockds.tools.InstanceStorage;
import io.rockds.tools.TextTable;

/** {@code list-backends}: the configured backends; reads only the configuration. */
@picocli.CommandLine.Command(
    name = "list-backends",
    description = "Lists the backends of the instance.")
final class ListBackends extends BackendStatCommand {
  @Override
  public Integer call() throws Exception {
    InstanceStorage storage = storage();
    TextTable table = new TextTable("Backend ID", "Storage", "Enabled", "Database");
    for (BackendConfig b : storage.config().backends()) {
      table.row(b.id(), "RocksDB", b.enabled(), storage.instance().resolve(b.dbDirectory()));
    }
    print(table);
    note("");
    note("Total: " + table.rowCount());
    return 0;
  }
}
