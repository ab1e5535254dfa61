package io.rockds.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.LDAPException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The changelog record of a change is written by the batch that applies the change and only by it,
 * numbered from a sequence or the log position, read in number order, purged by age.
 */
class ChangelogTest {
  @TempDir Path dir;

  @Test
  void aChangeIsRecordedByItsOwnBatchOnceAndSurvivesReopening() throws Exception {
    ChangeNumbers numbers = new ChangeNumbers(0);
    try (Backend backend = StorageFixtures.open(dir, 4000)) {
      EntryContainer c = backend.containerFor(StorageFixtures.BASE);
      StorageFixtures.addTree(c);
      assertThat(backend.changelog().last()).isEqualTo(-1);
      PendingChange first = change(numbers, 1000, "first");
      backend.recording(
          first,
          () -> {
            c.add(StorageFixtures.person(1, "Jensen"));
            // A second batch of the same application is not the change.
            c.add(StorageFixtures.person(2, "Smith"));
            return null;
          });
      assertThat(first.number()).isEqualTo(1);
      PendingChange refused = change(numbers, 2000, "refused");
      assertThatThrownBy(
              () ->
                  backend.recording(
                      refused,
                      () -> {
                        c.add(StorageFixtures.person(1, "Jensen"));
                        return null;
                      }))
          .isInstanceOf(LDAPException.class);
      assertThat(refused.number()).isEqualTo(-1);
      PendingChange replicated = change(numbers, 3000, "replicated");
      backend.applying(
          new LogPosition(1, 42, 0),
          42,
          () ->
              backend.recording(
                  replicated,
                  () -> {
                    c.delete(StorageFixtures.person(2, "Smith").getParsedDN());
                    return null;
                  }));
      assertThat(replicated.number()).isEqualTo(42);
      assertThat(numbers.settled()).isEqualTo(42);
    }
    try (Backend reopened = StorageFixtures.open(dir, 4000)) {
      Changelog changelog = reopened.changelog();
      assertThat(descriptions(changelog, 0, Long.MAX_VALUE))
          .containsExactly("1 first", "42 replicated");
      assertThat(descriptions(changelog, 2, 41)).isEmpty();
      assertThat(changelog.first()).isEqualTo(1);
      assertThat(changelog.lastAtOrBefore(41)).isEqualTo(1);
      assertThat(changelog.get(42).timeMillis()).isEqualTo(3000);
      assertThat(changelog.get(2)).isNull();
    }
  }

  @Test
  void purgingDeletesOldRecordsButNeverTheNewest() throws Exception {
    ChangeNumbers numbers = new ChangeNumbers(0);
    try (Backend backend = StorageFixtures.open(dir, 4000)) {
      EntryContainer c = backend.containerFor(StorageFixtures.BASE);
      StorageFixtures.addTree(c);
      for (int i = 1; i <= 4; i++) {
        int id = i;
        backend.recording(
            change(numbers, i * 1000L, "c" + i),
            () -> {
              c.add(StorageFixtures.person(id, "P" + id));
              return null;
            });
      }
      Changelog changelog = backend.changelog();
      assertThat(changelog.purgeOlderThan(2500)).isEqualTo(2);
      assertThat(descriptions(changelog, 0, Long.MAX_VALUE)).containsExactly("3 c3", "4 c4");
      assertThat(changelog.purgeOlderThan(Long.MAX_VALUE)).isEqualTo(1);
      assertThat(descriptions(changelog, 0, Long.MAX_VALUE)).containsExactly("4 c4");
    }
  }

  @Test
  void settledStopsBelowAChangeStillBeingWritten() {
    ChangeNumbers numbers = new ChangeNumbers(10);
    long a = numbers.claim(-1);
    long b = numbers.claim(-1);
    assertThat(numbers.settled()).isEqualTo(10);
    numbers.finished(b);
    assertThat(numbers.settled()).isEqualTo(a - 1);
    numbers.finished(a);
    assertThat(numbers.settled()).isEqualTo(b);
  }

  private static PendingChange change(ChangeNumbers numbers, long time, String text) {
    return new PendingChange(numbers, time, () -> text.getBytes(StandardCharsets.UTF_8));
  }

  private static List<String> descriptions(Changelog changelog, long from, long to)
      throws LDAPException {
    List<String> seen = new ArrayList<>();
    changelog.visit(
        from,
        to,
        r -> {
          seen.add(r.number() + " " + new String(r.description(), StandardCharsets.UTF_8));
          return true;
        });
    return seen;
  }
}
