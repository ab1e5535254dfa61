package io.rockds.server.security.password;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Debian's OpenLDAP programs, as the interoperability tests run them. */
final class OpenLdapTools {

  static final Path SLAPPASSWD = Path.of("/usr/sbin/slappasswd");
  static final Path SLAPADD = Path.of("/usr/sbin/slapadd");
  static final Path SLAPD = Path.of("/usr/sbin/slapd");
  static final Path MODULE_PATH = Path.of("/usr/lib/ldap");

  /** Said when a program fails, since a missing module is the usual reason. */
  static final String MODULES_HINT =
      "pw-sha2 and argon2 come with Debian's slapd package, pw-pbkdf2 with slapd-contrib";

  private OpenLdapTools() {}

  /** Runs a short-lived program to completion and returns its standard output. */
  static byte[] run(List<String> command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).start();
    byte[] out = process.getInputStream().readAllBytes();
    String err = new String(process.getErrorStream().readAllBytes(), UTF_8);
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
    assertThat(process.exitValue()).as("%s failed: %s (%s)", command, err, MODULES_HINT).isZero();
    return out;
  }
}
