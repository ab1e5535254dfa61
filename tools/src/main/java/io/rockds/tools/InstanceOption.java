package io.rockds.tools;

import io.rockds.layout.Instance;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --instance DIR}, the instance directory a tool works on ({@code instance} by default),
 * declared once for every tool that takes it. Mixed into a command with {@code @Mixin}.
 */
public final class InstanceOption {
  @Option(names = "--instance", description = "Instance directory (default: ${DEFAULT-VALUE}).")
  Path directory = Path.of("instance");

  /** The directory as given. */
  public Path directory() {
    return directory;
  }

  /** The instance in that directory. */
  public Instance instance() {
    return new Instance(directory);
  }
}
