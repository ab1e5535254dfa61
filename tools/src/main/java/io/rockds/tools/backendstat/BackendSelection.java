package io.rockds.tools.backendstat;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.config.BackendConfig;
import io.rockds.config.ConfigException;
import io.rockds.tools.InstanceStorage;
import java.util.List;
import picocli.CommandLine.Option;

/** The {@code -n backendID} and {@code -b baseDN} options that pick what a subcommand looks at. */
public final class BackendSelection {
  @Option(
      names = {"-n", "--backendID"},
      paramLabel = "<backendID>",
      description = "Backend ID, e.g. userRoot.")
  String backendId;

  @Option(
      names = {"-b", "--baseDN"},
      paramLabel = "<baseDN>",
      description = "Base DN of an entry container.")
  String baseDn;

  /** The parsed {@code -b}, or null. */
  public DN baseDn() throws ConfigException {
    if (baseDn == null) {
      return null;
    }
    try {
      return new DN(baseDn);
    } catch (LDAPException e) {
      throw new ConfigException("-b " + baseDn + ": not a DN: " + e.getExceptionMessage());
    }
  }

  /** The backends selected: by {@code -n}, else the one holding {@code -b}, else every backend. */
  public List<BackendConfig> backends(InstanceStorage storage) throws ConfigException {
    if (backendId != null) {
      return storage.backends(backendId);
    }
    DN base = baseDn();
    return base != null ? List.of(storage.backendHolding(base)) : storage.config().backends();
  }

  /**
   * The one backend selected; {@code -n} or {@code -b} is required when the instance has several.
   */
  public BackendConfig backend(InstanceStorage storage) throws ConfigException {
    List<BackendConfig> selected = backends(storage);
    if (selected.size() != 1) {
      throw new ConfigException(
          "-n <backendID> or -b <baseDN> is required: the instance has "
              + selected.size()
              + " backends");
    }
    return selected.get(0);
  }
}
