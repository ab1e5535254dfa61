package io.rockds.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.LDAPException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The applied log position is stored by the batch that applies a record, and only by it. */
class LogPositionTest {
  @TempDir Path dir;

  @Test
  void thePositionIsDurableWithTheChangeItApplied() throws Exception {
    try (Backend backend = StorageFixtures.open(dir, 4000)) {
      assertThat(backend.appliedPosition()).isEqualTo(LogPosition.NONE);
      EntryContainer c = backend.containerFor(StorageFixtures.BASE);
      StorageFixtures.addTree(c);
      assertThat(backend.appliedPosition()).isEqualTo(LogPosition.NONE);
      backend.applying(
          new LogPosition(2, 7),
          () -> {
            c.add(StorageFixtures.person(1, "Jensen"));
            return null;
          });
      assertThat(backend.appliedPosition()).isEqualTo(new LogPosition(2, 7));
      // A refused change writes no batch, so it records no position either.
      assertThatThrownBy(
              () ->
                  backend.applying(
                      new LogPosition(2, 8),
                      () -> {
                        c.add(StorageFixtures.person(1, "Jensen"));
                        return null;
                      }))
          .isInstanceOf(LDAPException.class);
      assertThat(backend.appliedPosition()).isEqualTo(new LogPosition(2, 7));
    }
    try (Backend reopened = StorageFixtures.open(dir, 4000)) {
      assertThat(reopened.appliedPosition()).isEqualTo(new LogPosition(2, 7));
      assertThat(new LogPosition(2, 7).notAfter(reopened.appliedPosition())).isTrue();
      assertThat(new LogPosition(3, 8).notAfter(reopened.appliedPosition())).isFalse();
    }
  }
}
