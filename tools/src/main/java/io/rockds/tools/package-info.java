/**
 * The command-line programs launched from {@code bin/}: {@code setup}, and later
 * {@code dsconfig}, {@code backendstat}, {@code import-ldif}, {@code export-ldif},
 * {@code rebuild-index}, {@code verify-index}, {@code makeldif} and {@code status}. They reuse the
 * storage, config and server code and never copy it.
 */
package io.rockds.tools;
