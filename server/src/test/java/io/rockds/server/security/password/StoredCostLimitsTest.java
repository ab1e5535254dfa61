package io.rockds.server.security.password;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rockds.server.security.password.PasswordSchemeSettings.Argon2Cost;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A stored value whose cost exceeds our limits is refused even when it is the right hash: a user
 * allowed to write a pre-hashed {@code userPassword} must not make each bind cost seconds or
 * hundreds of megabytes. Every vector here is the correct hash of "secret" (Python hashlib,
 * libxcrypt and libargon2), so removing a limit makes its test fail.
 */
class StoredCostLimitsTest {

  private static final byte[] SECRET = "secret".getBytes(US_ASCII);

  private final PasswordSchemes schemes = new PasswordSchemes(PasswordSchemeSettings.defaults());

  @ParameterizedTest
  @ValueSource(
      strings = {
        // 2,000,001 iterations, Pbkdf2Scheme.MAX_ITERATIONS + 1
        "{PBKDF2-SHA256}2000001$MDEyMzQ1Njc4OWFiY2RlZg$CltD8beB3.j58tFHPkTmh5SdTUkkbCIZBORLeJ4ShA4",
        // bcrypt cost 16, BcryptScheme.MAX_COST + 1, as {BCRYPT} and as {CRYPT}
        "{BCRYPT}$2b$16$CCCCCCCCCCCCCCCCCCCCC.BrDqUuTL1XnywCbtI30w8wiKnRJvBB6",
        "{CRYPT}$2b$16$CCCCCCCCCCCCCCCCCCCCC.BrDqUuTL1XnywCbtI30w8wiKnRJvBB6",
        // SHA-512-crypt with 1,000,001 rounds, CryptScheme.MAX_ROUNDS + 1
        "{CRYPT}$6$rounds=1000001$abcdefgh$RaZkxSgtgbWX5F6hSxvN/iHU2tNY4/wXVGmfB8d70FrWz75D71IW545Tq"
            + "LfyoPVih/cPD/6iTQbZTy.qMlSs61",
        // argon2id one step beyond each of Argon2Scheme's limits: memory, passes, lanes
        "{ARGON2}$argon2id$v=19$m=262145,t=1,p=1$MDEyMzQ1Njc4OWFiY2RlZg$"
            + "9Zin3/QgbuNXMHaIG60H81hqpjSAi731HSmU9mUgc7Y",
        "{ARGON2}$argon2id$v=19$m=64,t=17,p=1$MDEyMzQ1Njc4OWFiY2RlZg$"
            + "Hbw96Hq464TQHYXedG7TDp9BRG59s7pdADKxP2v+dMc",
        "{ARGON2}$argon2id$v=19$m=256,t=1,p=17$MDEyMzQ1Njc4OWFiY2RlZg$"
            + "55iv3ZgX4dtk3aQ3VRD0sgVFxEy42WbSjCppvd7swDA"
      })
  void verify_correctHashBeyondTheCostLimit_isRefused(String stored) {
    assertThat(schemes.verify(SECRET, stored.getBytes(US_ASCII))).isFalse();
  }

  @Test
  void settings_pbkdf2IterationsBeyondTheLimit_areRefused() {
    assertThatThrownBy(() -> settings(Pbkdf2Scheme.MAX_ITERATIONS + 1, 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pbkdf2Iterations: 2000001 (expected: 1..2000000)");
    assertThatThrownBy(() -> settings(0, 10)).isInstanceOf(IllegalArgumentException.class);
    assertThat(settings(Pbkdf2Scheme.MAX_ITERATIONS, 10).pbkdf2Iterations()).isEqualTo(2_000_000);
  }

  @Test
  void settings_bcryptCostOutsideTheLimits_isRefused() {
    assertThatThrownBy(() -> settings(10_000, BcryptScheme.MAX_COST + 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bcryptCost: 16 (expected: 4..15)");
    assertThatThrownBy(() -> settings(10_000, BcryptScheme.MIN_COST - 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void settings_argon2CostOutsideTheLimits_isRefused() {
    assertThatThrownBy(() -> new Argon2Cost(Argon2Scheme.MAX_MEMORY_KIB + 1, 1, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("argon2Cost: m=262145,t=1,p=1");
    assertThatThrownBy(() -> new Argon2Cost(64, Argon2Scheme.MAX_PASSES + 1, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Argon2Cost(64, 1, Argon2Scheme.MAX_LANES + 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Argon2Cost(7, 1, 1)).isInstanceOf(IllegalArgumentException.class);
  }

  private static PasswordSchemeSettings settings(int pbkdf2Iterations, int bcryptCost) {
    return new PasswordSchemeSettings(
        "SSHA512", Set.of("CLEAR"), pbkdf2Iterations, bcryptCost, Argon2Cost.OWASP);
  }
}
