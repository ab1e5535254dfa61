package io.rockds.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whether a server runs on an instance is its lock, never its pid file. */
class ServerLockTest {
  @TempDir Path dir;

  @Test
  void theLockIsExclusiveUntilClosedAndTheRefusalNamesThePid() throws Exception {
    Instance instance = new Instance(dir);
    assertThat(ServerLock.isHeld(instance)).as("no lock file yet").isFalse();
    Files.createDirectories(instance.logs());
    Files.writeString(instance.pidFile(), "4242\n");
    try (ServerLock held = ServerLock.acquire(instance)) {
      assertThat(held).isNotNull();
      assertThat(ServerLock.isHeld(instance)).isTrue();
      assertThatThrownBy(() -> ServerLock.acquire(instance))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("already running (pid 4242)")
          .hasMessageContaining(instance.lockFile().toString());
    }
    assertThat(ServerLock.isHeld(instance)).isFalse();
    try (ServerLock again = ServerLock.acquire(instance)) {
      assertThat(again).isNotNull();
      assertThat(ServerLock.isHeld(instance)).isTrue();
    }
  }

  @Test
  void aStalePidFileDoesNotMakeAServerRun() throws Exception {
    Instance instance = new Instance(dir);
    Files.createDirectories(instance.logs());
    Files.writeString(instance.pidFile(), "1\n");
    assertThat(ServerLock.isHeld(instance)).isFalse();
    try (ServerLock held = ServerLock.acquire(instance)) {
      assertThat(held).isNotNull();
      assertThat(instance.lockFile()).exists();
    }
  }

  @Test
  void configuredPathsAreRelativeToTheInstanceUnlessAbsolute() {
    Instance instance = new Instance(dir.resolve("a/../inst"));
    assertThat(instance.root()).isEqualTo(dir.resolve("inst").toAbsolutePath());
    assertThat(instance.resolve("db/userRoot")).isEqualTo(instance.root().resolve("db/userRoot"));
    assertThat(instance.resolve("/var/db")).isEqualTo(Path.of("/var/db"));
    assertThat(instance.configFile()).isEqualTo(instance.root().resolve("config/config.ldif"));
  }
}
