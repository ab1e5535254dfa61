package io.rockds.storage.importer;

import java.time.Duration;

/**
 * The summary of an import.
 *
 * @param read LDIF records read
 * @param imported entries stored
 * @param rejected records refused (bad LDIF, missing parent, duplicate, refused by the transformer)
 * @param skipped entries the filter left out
 * @param elapsed wall-clock time
 */
public record ImportResult(
    long read, long imported, long rejected, long skipped, Duration elapsed) {

  /** Entries stored per second. */
  public double rate() {
    return imported * 1000.0 / Math.max(1, elapsed.toMillis());
  }

  @Override
  public String toString() {
    return String.format(
        "%d entries read, %d imported, %d rejected, %d skipped in %.1f s (%.0f/s)",
        read, imported, rejected, skipped, elapsed.toMillis() / 1000.0, rate());
  }
}
