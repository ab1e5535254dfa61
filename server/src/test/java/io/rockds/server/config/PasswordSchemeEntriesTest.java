package io.rockds.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rockds.config.InitialConfig;
import io.rockds.config.PasswordStorageConfig;
import io.rockds.config.ServerConfig;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The scheme entries setup writes name schemes the server has; each can be a policy's default. */
class PasswordSchemeEntriesTest {
  private static ServerConfig withStorage(PasswordStorageConfig storage) {
    return new ServerConfig(null, List.of(), List.of(), List.of(), List.of(), storage);
  }

  @Test
  void everySchemeEntryNamesAKnownScheme() throws Exception {
    for (List<String> scheme : InitialConfig.PASSWORD_STORAGE_SCHEMES) {
      if (scheme.get(1).equals("CLEAR")) {
        continue;
      }
      byte[] hash = LiveConfiguration.passwordSchemes(withStorage(new PasswordStorageConfig(scheme.get(1),
          Set.of("CLEAR")))).encode("secret".getBytes(StandardCharsets.UTF_8));
      assertThat(new String(hash, StandardCharsets.UTF_8)).as(scheme.get(0)).startsWithIgnoringCase("{" + scheme.get(1));
    }
  }

  @Test
  void anUnknownOrDisabledDefaultSchemeIsRefused() {
    assertThatThrownBy(() -> LiveConfiguration.checkApplicable(withStorage(new PasswordStorageConfig("NOPE",
        Set.of())))).hasMessageContaining("NOPE");
    assertThatThrownBy(() -> LiveConfiguration.checkApplicable(withStorage(new PasswordStorageConfig("SSHA",
        Set.of("SSHA"))))).hasMessageContaining("not disabled");
  }
}
