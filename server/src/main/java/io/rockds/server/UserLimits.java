package io.rockds.server;

import com.unboundid.ldap.sdk.Entry;
import java.time.Duration;
import java.util.List;

/**
 * A user's own resource limits, from the OpenDJ operational attributes of their entry; each one,
 * when present, replaces the server's limit for that user (higher or lower; {@code 0} or {@code -1}
 * means no limit), as OpenDJ's do. A client's own request limit still applies when smaller.
 *
 * @param sizeLimit {@code ds-rlim-size-limit}: entries one search may return, or null for the
 *     server's
 * @param timeLimitSeconds {@code ds-rlim-time-limit}: seconds one search may run, or null
 * @param lookthroughLimit {@code ds-rlim-lookthrough-limit}: candidates one search may examine, or
 *     null
 * @param idleTimeLimitSeconds {@code ds-rlim-idle-time-limit}: seconds a connection bound as this
 *     user may stay idle before the server closes it, instead of the listener's {@code
 *     idle-time-limit}, or null
 */
public record UserLimits(
    Integer sizeLimit,
    Integer timeLimitSeconds,
    Integer lookthroughLimit,
    Integer idleTimeLimitSeconds) {
  public static final UserLimits NONE = new UserLimits(null, null, null, null);

  public static final String SIZE_LIMIT = "ds-rlim-size-limit";
  public static final String TIME_LIMIT = "ds-rlim-time-limit";
  public static final String LOOKTHROUGH_LIMIT = "ds-rlim-lookthrough-limit";
  public static final String IDLE_TIME_LIMIT = "ds-rlim-idle-time-limit";

  /** Every attribute {@link #of} reads. */
  public static final List<String> ATTRIBUTES =
      List.of(SIZE_LIMIT, TIME_LIMIT, LOOKTHROUGH_LIMIT, IDLE_TIME_LIMIT);

  /**
   * The limits {@code entry} carries; a value that is not an integer is ignored (the server's
   * applies).
   */
  public static UserLimits of(Entry entry) {
    return new UserLimits(
        integer(entry, SIZE_LIMIT),
        integer(entry, TIME_LIMIT),
        integer(entry, LOOKTHROUGH_LIMIT),
        integer(entry, IDLE_TIME_LIMIT));
  }

  /** The user's limit if set (0 for none), else {@code serverLimit}. */
  public static int effective(Integer userLimit, int serverLimit) {
    return userLimit == null ? serverLimit : Math.max(userLimit, 0);
  }

  /**
   * The idle timeout of a connection bound with these limits: the user's ({@link Duration#ZERO} for
   * none), or null for the listener's.
   */
  public Duration idleTimeout() {
    return idleTimeLimitSeconds == null
        ? null
        : Duration.ofSeconds(Math.max(idleTimeLimitSeconds, 0));
  }

  private static Integer integer(Entry entry, String attribute) {
    try {
      return entry.getAttributeValueAsInteger(attribute);
    } catch (RuntimeException e) {
      return null;
    }
  }
}
