package io.rockds.server;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * The version and git commit this build was made from ({@code build.properties}, written by the
 * build), for the root DSE, {@code --version} and backup manifests.
 */
public record BuildInfo(String version, String commit) {
  private static final BuildInfo CURRENT = load();

  public static BuildInfo current() {
    return CURRENT;
  }

  /**
   * Prints {@link #describe()}: the {@code --version} of the shell-script tools (start-ds,
   * stop-ds).
   */
  public static void main(String[] args) {
    System.out.println(CURRENT.describe());
  }

  /** "RockDS 0.1.0-SNAPSHOT (commit 0123456789ab)". */
  public String describe() {
    return "RockDS " + version + " (commit " + commit + ")";
  }

  private static BuildInfo load() {
    Properties p = new Properties();
    try (InputStream in = BuildInfo.class.getResourceAsStream("build.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      // Unknown below.
    }
    return new BuildInfo(p.getProperty("version", "unknown"), p.getProperty("commit", "unknown"));
  }
}
