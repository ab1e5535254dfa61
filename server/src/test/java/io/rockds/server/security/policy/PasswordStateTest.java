package io.rockds.server.security.policy;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Failures are added, never replaced, so that failures another server of a replication group
 * recorded meanwhile still count; reaching the count locks even before a locked time was written.
 */
class PasswordStateTest {
  private static final Instant NOW = Instant.parse("2026-11-27T17:00:00Z");
  private static final PasswordPolicy LOCK_AT_3 =
      new PasswordPolicy(
          DN.NULL_DN,
          "SSHA512",
          0,
          0,
          Duration.ZERO,
          Duration.ZERO,
          3,
          Duration.ofMinutes(5),
          false,
          true,
          false,
          false,
          false,
          List.of());

  private static Entry withFailures(Instant... times) {
    Entry entry = new Entry("uid=u,dc=example,dc=com");
    for (Instant t : times) {
      entry.addAttribute(PasswordState.FAILURE_TIME, PasswordState.format(t));
    }
    return entry;
  }

  @Test
  void aFailureIsAddedAndOnlyTheOldestFailureThisServerSawIsDropped() {
    Instant first = NOW.minusSeconds(30);
    Instant second = NOW.minusSeconds(20);
    Instant third = NOW.minusSeconds(10);
    List<Modification> mods =
        PasswordState.afterFailure(
            new PasswordState(withFailures(second, first, third)), LOCK_AT_3, NOW);
    assertThat(mods)
        .containsExactly(
            new Modification(
                ModificationType.DELETE, PasswordState.FAILURE_TIME, PasswordState.format(first)),
            new Modification(
                ModificationType.ADD, PasswordState.FAILURE_TIME, PasswordState.format(NOW)),
            new Modification(
                ModificationType.REPLACE, PasswordState.LOCKED_TIME, PasswordState.format(NOW)));

    // A first failure: nothing to drop, no lock yet.
    assertThat(PasswordState.afterFailure(new PasswordState(withFailures()), LOCK_AT_3, NOW))
        .containsExactly(
            new Modification(
                ModificationType.ADD, PasswordState.FAILURE_TIME, PasswordState.format(NOW)));
  }

  @Test
  void failuresReachingTheCountLockWithoutALockedTime() {
    Instant last = NOW.minusSeconds(60);
    PasswordState reached =
        new PasswordState(withFailures(NOW.minusSeconds(90), NOW.minusSeconds(80), last));
    assertThat(reached.isLocked(LOCK_AT_3, NOW)).isTrue();
    // For the lockout duration after the failure that reached the count.
    assertThat(reached.isLocked(LOCK_AT_3, last.plus(Duration.ofMinutes(5)))).isFalse();
    PasswordState below = new PasswordState(withFailures(NOW.minusSeconds(90), last));
    assertThat(below.isLocked(LOCK_AT_3, NOW)).isFalse();
  }
}
