package io.rockds.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.LDAPException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A follow-up is stored by the batch of the change that brings it, and only by that one, until it
 * is declared done: a crash in between finds it at the next open.
 */
class FollowUpTest {
  @TempDir Path dir;

  @Test
  void theFollowUpIsDurableWithItsChangeUntilDone() throws Exception {
    byte[] description = "groups to update".getBytes(StandardCharsets.UTF_8);
    try (Backend backend = StorageFixtures.open(dir, 4000)) {
      EntryContainer c = backend.containerFor(StorageFixtures.BASE);
      StorageFixtures.addTree(c);
      assertThat(backend.pendingFollowUp()).isNull();
      // A refused change writes no batch, so it stores no follow-up.
      c.add(StorageFixtures.person(1, "Jensen"));
      assertThatThrownBy(
              () ->
                  backend.following(
                      () -> description,
                      () -> {
                        c.add(StorageFixtures.person(1, "Jensen"));
                        return null;
                      }))
          .isInstanceOf(LDAPException.class);
      assertThat(backend.pendingFollowUp()).isNull();
      backend.following(
          () -> description,
          () -> {
            c.delete(StorageFixtures.person(1, "Jensen").getParsedDN());
            return null;
          });
    }
    try (Backend reopened = StorageFixtures.open(dir, 4000)) {
      assertThat(reopened.pendingFollowUp()).isEqualTo(description);
      reopened.followedUp();
      assertThat(reopened.pendingFollowUp()).isNull();
    }
  }
}
