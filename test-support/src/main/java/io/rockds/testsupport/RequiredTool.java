package io.rockds.testsupport;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * Tests that drive an external program (slapd, ldap-utils, shellcheck, docker...) skip themselves
 * on a machine without it, with a message naming the Debian package to install, so the README's
 * test command passes on any machine with Java 17. Where the tools must be there (CI, whose {@code
 * .ci/run} installs them and sets {@code CI_REQUIRE_TOOLS=1}) the same check fails the test
 * instead: nothing is silently skipped there.
 */
public final class RequiredTool {
  /** Set to 1 by .ci/run: a missing tool fails the test instead of skipping it. */
  public static final String REQUIRE_VARIABLE = "CI_REQUIRE_TOOLS";

  private RequiredTool() {}

  /**
   * Skips (or, under {@code CI_REQUIRE_TOOLS=1}, fails) unless {@code program} is an executable
   * file.
   */
  public static void assumeInstalled(Path program, String debianPackage) {
    require(Files.isExecutable(program), program + " is not installed", debianPackage);
  }

  /**
   * As {@link #assumeInstalled(Path, String)} for a program looked up on the PATH, e.g. {@code
   * shellcheck}.
   */
  public static Path assumeOnPath(String program, String debianPackage) {
    String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    for (String directory : path.split(File.pathSeparator)) {
      Path candidate = Path.of(directory, program);
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    require(false, program + " is not on the PATH", debianPackage);
    return null; // not reached: require aborted or failed the test
  }

  /**
   * As {@link #assumeInstalled(Path, String)} for a file a package installs, e.g. a slapd module.
   */
  public static void assumeFile(Path file, String debianPackage) {
    require(Files.exists(file), file + " is missing", debianPackage);
  }

  /** True when missing tools fail tests ({@code CI_REQUIRE_TOOLS=1}). */
  public static boolean required() {
    return "1".equals(System.getenv(REQUIRE_VARIABLE));
  }

  private static void require(boolean present, String what, String debianPackage) {
    String message =
        what + " (Debian package " + debianPackage + ": apt-get install " + debianPackage + ")";
    if (!present && required()) {
      throw new AssertionError(message + "; " + REQUIRE_VARIABLE + "=1 requires it");
    }
    Assumptions.assumeTrue(present, message + "; skipped");
  }
}
