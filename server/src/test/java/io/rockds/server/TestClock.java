package io.rockds.server;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The system clock plus what the test moved it forward by: time-dependent behaviour (lockouts
 * ending, passwords expiring) is tested by {@link #advance} instead of sleeping, while timestamps
 * the server takes from the system clock (createTimestamp) stay consistent with it.
 */
public final class TestClock extends Clock {
  private volatile Duration offset = Duration.ZERO;

  public void advance(Duration duration) {
    offset = offset.plus(duration);
  }

  @Override
  public Instant instant() {
    return Instant.now().plus(offset);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
