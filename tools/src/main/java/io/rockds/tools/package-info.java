/**
 * The command-line programs launched from {@code bin/} ({@code setup}, {@code backendstat}, {@code
 * import-ldif}, {@code export-ldif}, {@code rebuild-index}, {@code verify-index}, {@code makeldif},
 * {@code status}, one subpackage each) and what they share: {@link io.rockds.tools.ToolRunner}
 * (one-line errors, exit codes), {@link io.rockds.tools.InstanceStorage} (an instance's backends
 * opened from its configuration, read-only or exclusively), {@link io.rockds.tools.RunningServer}
 * (whether its server runs) and {@link io.rockds.tools.TextTable} (aligned tables). They reuse the
 * storage, config and server code and never copy it.
 */
package io.rockds.tools;
