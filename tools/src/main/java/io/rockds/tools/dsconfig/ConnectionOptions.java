package io.rockds.tools.dsconfig;

import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.config.ConfigException;
import io.rockds.layout.Instance;
import io.rockds.tools.LdapConnectionOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The options every dsconfig subcommand accepts, with OpenDJ's names; they may come before or after
 * the subcommand: the connection ({@link LdapConnectionOptions}, shared by every tool that
 * connects) and dsconfig's own.
 */
final class ConnectionOptions {
  @Mixin LdapConnectionOptions ldap = new LdapConnectionOptions();

  @Option(
      names = {"-n", "--no-prompt"},
      scope = ScopeType.INHERIT,
      description = "Non-interactive: never prompt, run the subcommand given.")
  boolean noPrompt;

  @Option(
      names = {"-s", "--script-friendly"},
      scope = ScopeType.INHERIT,
      description = "Tab-separated output without headers, for scripts.")
  boolean scriptFriendly;

  @Option(
      names = "--offline",
      scope = ScopeType.INHERIT,
      description = "Edit config/config.ldif of a stopped server instead of connecting.")
  boolean offline;

  @Option(
      names = "--instance",
      scope = ScopeType.INHERIT,
      description = "Instance directory for --offline (default: instance).")
  Path instance = Path.of("instance");

  /**
   * Opens the configuration: the instance's file with {@code --offline}, else an LDAP connection.
   */
  ConfigConnection open()
      throws LDAPException, ConfigException, IOException, GeneralSecurityException {
    if (offline) {
      return OfflineConfigConnection.open(new Instance(instance));
    }
    try {
      return new LdapConfigConnection(ldap.connectAndBind(!noPrompt));
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage(), e);
    }
  }
}
