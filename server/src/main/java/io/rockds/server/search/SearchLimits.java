package io.rockds.server.search;

import com.unboundid.ldap.protocol.SearchRequestProtocolOp;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.config.GlobalConfig;
import io.rockds.server.UserLimits;
import io.rockds.storage.matching.Deadline;
import java.util.concurrent.TimeUnit;

/**
 * The limits of one search: for size and time the smaller of the client's and the server's, the
 * server's lookthrough limit; root users are exempt from the server's limits, as in OpenDJ, and a
 * user's own {@code ds-rlim-*} limits ({@link UserLimits}) replace the server's.
 *
 * @param sizeLimit entries that may be returned (0 = none)
 * @param deadlineNanos {@link System#nanoTime()} past which the search fails
 * @param lookthroughLimit candidate entries that may be examined (0 = none)
 */
public record SearchLimits(int sizeLimit, long deadlineNanos, int lookthroughLimit)
    implements Deadline {

  public static SearchLimits of(
      SearchRequestProtocolOp request, GlobalConfig global, boolean exempt) {
    return of(request, global, exempt, UserLimits.NONE);
  }

  public static SearchLimits of(
      SearchRequestProtocolOp request, GlobalConfig global, boolean exempt, UserLimits user) {
    int size =
        smaller(
            request.getSizeLimit(),
            UserLimits.effective(user.sizeLimit(), exempt ? 0 : global.sizeLimit()));
    int seconds =
        smaller(
            request.getTimeLimit(),
            UserLimits.effective(user.timeLimitSeconds(), exempt ? 0 : global.timeLimitSeconds()));
    long deadline =
        seconds <= 0 ? Long.MAX_VALUE : System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    return new SearchLimits(
        size,
        deadline,
        UserLimits.effective(user.lookthroughLimit(), exempt ? 0 : global.lookthroughLimit()));
  }

  /** The smaller of two limits where 0 (or less) means none. */
  static int smaller(int a, int b) {
    if (a <= 0) {
      return Math.max(b, 0);
    }
    return b <= 0 ? a : Math.min(a, b);
  }

  @Override
  public boolean passed() {
    return deadlineNanos != Long.MAX_VALUE && System.nanoTime() - deadlineNanos > 0;
  }

  /** timeLimitExceeded (3) once the deadline has passed. */
  public void checkTime() throws LDAPException {
    if (passed()) {
      throw new LDAPException(
          ResultCode.TIME_LIMIT_EXCEEDED, "The time limit for the search was exceeded");
    }
  }

  /** sizeLimitExceeded (4) when one more entry would pass the size limit. */
  public void checkSize(int alreadySent) throws LDAPException {
    if (sizeLimit > 0 && alreadySent >= sizeLimit) {
      throw new LDAPException(
          ResultCode.SIZE_LIMIT_EXCEEDED,
          "The size limit of " + sizeLimit + " entries was exceeded");
    }
  }

  /**
   * adminLimitExceeded (11) when a search would examine more entries than the lookthrough limit.
   */
  public void checkLookthrough(long examined) throws LDAPException {
    if (lookthroughLimit > 0 && examined > lookthroughLimit) {
      throw new LDAPException(
          ResultCode.ADMIN_LIMIT_EXCEEDED,
          "The search would examine more than the lookthrough limit of "
              + lookthroughLimit
              + " entries");
    }
  }
}
