package io.rockds.tools;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * What {@code -V}/{@code --version} prints: {@code RockDS <version>}, plus {@code (commit <id>)}
 * when the build recorded one. Both come from {@code rockds-version.properties} on the class path
 * (keys {@code version} and {@code commit}), which the build writes.
 */
public final class ToolVersion implements IVersionProvider {
  static final String RESOURCE = "/rockds-version.properties";

  /** Prints the version line, for the bin/ scripts that are not Java tools. */
  public static void main(String[] args) {
    System.out.println(line());
  }

  @Override
  public String[] getVersion() {
    return new String[] {line()};
  }

  /** One line, e.g. {@code RockDS 0.1.0 (commit 40d2a6e)}. */
  public static String line() {
    Properties properties = properties();
    String version = properties.getProperty("version", "unknown");
    String commit = properties.getProperty("commit", "");
    return "RockDS " + version + (commit.isBlank() || commit.startsWith("${") ? "" : " (commit " + commit + ")");
  }

  private static Properties properties() {
    Properties properties = new Properties();
    try (InputStream in = ToolVersion.class.getResourceAsStream(RESOURCE)) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + RESOURCE, e);
    }
    return properties;
  }
}
