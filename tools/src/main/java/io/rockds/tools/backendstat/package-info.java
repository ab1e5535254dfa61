/**
 * {@code backendstat}: OpenDJ's backend inspection tool over RockDS storage. Every subcommand is
 * generic over {@link io.rockds.storage.Tree}, which prints its own keys and values; the instance's
 * backends are opened by {@link io.rockds.tools.InstanceStorage} from its {@code config.ldif},
 * read-only, so the tool also runs against a live server.
 */
package io.rockds.tools.backendstat;
