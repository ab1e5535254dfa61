package io.rockds.tools;

import io.rockds.layout.Instance;

/**
 * A command that names the instance it works on: what a subcommand defined in another package (such
 * as {@code backendstat suggest-indexes}) asks of its parent, so it need not know the parent's
 * class.
 */
public interface InstanceCommand {
  Instance instance();
}
