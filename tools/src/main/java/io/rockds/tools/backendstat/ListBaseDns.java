package io.rockds.tools.backendstat;

import com.unboundid.ldap.sdk.DN;
import io.rockds.config.BackendConfig;
import io.rockds.tools.InstanceStorage;
import io.rockds.tools.TextTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code list-base-dns}: the base DNs of a backend, from the configuration. */
@Command(name = "list-base-dns", description = "Lists the base DNs of a backend.")
final class ListBaseDns extends BackendStatCommand {
  @Mixin BackendSelection selection;

  @Override
  public Integer call() throws Exception {
    InstanceStorage storage = storage();
    TextTable table = new TextTable("Base DN", "Backend ID");
    for (BackendConfig b : selection.backends(storage)) {
      for (DN base : b.baseDns()) {
        table.row(base, b.id());
      }
    }
    print(table);
    note("");
    note("Total: " + table.rowCount());
    return 0;
  }
}
