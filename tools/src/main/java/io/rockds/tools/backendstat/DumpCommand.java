package io.rockds.tools.backendstat;

import picocli.CommandLine.Mixin;

/**
 * {@code dump-index} and {@code dump-raw-db}: the backend they read ({@code -n} / {@code -b}) and
 * which of its records they print ({@link DumpOptions}).
 */
abstract class DumpCommand extends BackendStatCommand {
  @Mixin BackendSelection selection;

  @Mixin DumpOptions dump;
}
