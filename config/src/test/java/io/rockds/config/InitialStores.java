package io.rockds.config;

import com.unboundid.ldap.sdk.DN;
import java.nio.file.Path;

/** The configuration setup writes, saved under a test's directory and loaded back from the file. */
final class InitialStores {
  private InitialStores() {}

  /**
   * @param ldapsPort negative for no LDAPS listener
   */
  static ConfigStore saved(Path dir, int ldapPort, int ldapsPort) throws Exception {
    InitialConfig.Parameters p =
        new InitialConfig.Parameters(
            new DN("dc=example,dc=com"),
            "127.0.0.1",
            ldapPort,
            ldapsPort,
            new DN("cn=Directory Manager"),
            "{SSHA512}aGFzaA==",
            false);
    ConfigStore store =
        ConfigStore.create(dir.resolve("config").resolve("config.ldif"), InitialConfig.entries(p));
    store.save();
    return ConfigStore.load(store.file());
  }
}
