package io.rockds.server.security.password;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PasswordSchemesTest {

  private static final byte[] PASSWORD = "correct horse battery staple".getBytes(UTF_8);
  private static final byte[] WRONG = "correct horse battery stapl3".getBytes(UTF_8);

  private final PasswordSchemes defaults = new PasswordSchemes(PasswordSchemeSettings.defaults());
  private final PasswordSchemes clearAllowed = withDisabled(Set.of());

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SSHA",
        "SSHA256",
        "SSHA384",
        "SSHA512",
        "SMD5",
        "SHA",
        "SHA256",
        "SHA384",
        "SHA512",
        "MD5",
        "PBKDF2",
        "PBKDF2-SHA1",
        "PBKDF2-SHA256",
        "PBKDF2-SHA512",
        "PBKDF2-HMAC-SHA256",
        "PBKDF2-HMAC-SHA512",
        "BCRYPT",
        "ARGON2",
        "CRYPT",
        "CLEAR"
      })
  void encode_thenVerify_roundTripsForEveryScheme(String scheme) {
    PasswordSchemes schemes = withDefault(scheme);
    byte[] password = PASSWORD.clone();

    byte[] stored = schemes.encode(password);

    assertThat(new String(stored, US_ASCII)).startsWith("{" + scheme + "}");
    assertThat(schemes.isEncoded(stored)).isTrue();
    assertThat(schemes.verify(password, stored)).isTrue();
    assertThat(schemes.verify(WRONG, stored)).isFalse();
    // regression: Commons Codec's MD5/SHA crypt zero the key array they are given
    assertThat(password).isEqualTo(PASSWORD);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"SSHA", "SSHA512", "SMD5", "SHA", "SHA256", "MD5", "CLEAR", "PBKDF2-SHA256"})
  void verifiesQuickly_digestsAndClearTextOnly(String scheme) {
    PasswordSchemes schemes = withDefault(scheme);
    boolean digestOrClear = !scheme.startsWith("PBKDF2");

    assertThat(schemes.verifiesQuickly(schemes.encode(PASSWORD))).isEqualTo(digestOrClear);
    assertThat(schemes.decoyVerifiesQuickly()).isEqualTo(digestOrClear);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{PBKDF2-HMAC-SHA512}10000:c2FsdA==:aGFzaA==",
        "{BCRYPT}$2b$10$CCCCCCCCCCCCCCCCCCCCC.pIKrLVkBX9/OvQMSygY1pWEVn72t6na",
        "{ARGON2}$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
        "{CRYPT}$6$salt$hash"
      })
  void verifiesQuickly_notTheSchemesSlowOnPurpose(String stored) {
    assertThat(defaults.verifiesQuickly(stored.getBytes(US_ASCII))).isFalse();
  }

  @Test
  void verifiesQuickly_aValueThatVerifiesNothingComputesNothing() {
    // CLEAR is disabled by default; {K5KEY} names no scheme we know.
    assertThat(defaults.verifiesQuickly("{CLEAR}secret".getBytes(US_ASCII))).isTrue();
    assertThat(defaults.verifiesQuickly("{K5KEY}secret".getBytes(US_ASCII))).isTrue();
  }

  @Test
  void encode_usesAFreshSaltEachTime() {
    assertThat(defaults.encode(PASSWORD)).isNotEqualTo(defaults.encode(PASSWORD));
  }

  @Test
  void encode_byDefault_writesSsha512WithA16ByteSalt() {
    String stored = new String(defaults.encode(PASSWORD), US_ASCII);

    assertThat(stored).startsWith("{SSHA512}");
    assertThat(java.util.Base64.getDecoder().decode(stored.substring(9))).hasSize(64 + 16);
  }

  @Test
  void encode_pbkdf2_writesTheConfiguredIterationsInOpenLdapLayout() {
    PasswordSchemes schemes =
        new PasswordSchemes(
            new PasswordSchemeSettings(
                "PBKDF2-SHA256",
                Set.of("CLEAR"),
                12_345,
                10,
                PasswordSchemeSettings.Argon2Cost.OWASP));

    String stored = new String(schemes.encode(PASSWORD), US_ASCII);

    // 16-byte salt and 32-byte hash in adapted base64: 22 and 43 characters, no padding
    assertThat(stored).matches("\\{PBKDF2-SHA256}12345\\$[A-Za-z0-9./]{22}\\$[A-Za-z0-9./]{43}");
  }

  @Test
  void encode_pbkdf2UnderAnOpenDjName_writesOpenDjLayout() {
    String stored = new String(withDefault("PBKDF2-HMAC-SHA512").encode(PASSWORD), US_ASCII);

    assertThat(stored).matches("\\{PBKDF2-HMAC-SHA512}10000:[A-Za-z0-9+/]+=*");
  }

  @Test
  void encode_argon2_writesOpenLdapsArgon2idParameters() {
    String stored = new String(withDefault("ARGON2").encode(PASSWORD), US_ASCII);

    assertThat(stored).startsWith("{ARGON2}$argon2id$v=19$m=19456,t=2,p=1$");
  }

  @Test
  void encode_emptyPassword_isRefused() {
    assertThatThrownBy(() -> defaults.encode(new byte[0]))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void verify_matchesTheSchemeNameInAnyCase() {
    String stored = new String(defaults.encode(PASSWORD), US_ASCII);
    byte[] lowerCase = stored.replace("{SSHA512}", "{ssha512}").getBytes(US_ASCII);

    assertThat(defaults.verify(PASSWORD, lowerCase)).isTrue();
    assertThat(defaults.isEncoded(lowerCase)).isTrue();
  }

  @Test
  void verify_passwordThatIsNotUtf8_roundTrips() {
    byte[] latin1 = "mot de passe \u00e9t\u00e9".getBytes(ISO_8859_1);

    assertThat(defaults.verify(latin1, defaults.encode(latin1))).isTrue();
    assertThat(clearAllowed.verify(latin1, withDefault("CLEAR").encode(latin1))).isTrue();
  }

  @Test
  void verify_emptyPassword_neverMatches() {
    assertThat(clearAllowed.verify(new byte[0], new byte[0])).isFalse();
    assertThat(clearAllowed.verify(new byte[0], "{CLEAR}".getBytes(US_ASCII))).isFalse();
  }

  @Test
  void verify_clearTextStoredValue_matchesOnlyWhileClearIsEnabled() {
    byte[] unprefixed = PASSWORD;
    byte[] labelled = ("{CLEAR}" + new String(PASSWORD, UTF_8)).getBytes(UTF_8);

    assertThat(clearAllowed.verify(PASSWORD, unprefixed)).isTrue();
    assertThat(clearAllowed.verify(PASSWORD, labelled)).isTrue();
    assertThat(clearAllowed.verify(WRONG, unprefixed)).isFalse();
    assertThat(defaults.verify(PASSWORD, unprefixed)).isFalse();
    assertThat(defaults.verify(PASSWORD, labelled)).isFalse();
  }

  @Test
  void verify_unknownScheme_neverMatchesEvenItsLiteralText() {
    byte[] stored = "{SASL}alice@EXAMPLE.COM".getBytes(US_ASCII);

    assertThat(clearAllowed.verify(stored, stored)).isFalse();
    assertThat(clearAllowed.isEncoded(stored)).isFalse();
  }

  @Test
  void verify_disabledScheme_neverMatches() {
    byte[] stored = "{MD5}Xr4ilOzQ4PCOq3aQ0qbuaQ==".getBytes(US_ASCII);
    byte[] secret = "secret".getBytes(US_ASCII);

    assertThat(defaults.verify(secret, stored)).isTrue();
    assertThat(withDisabled(Set.of("md5", "CLEAR")).verify(secret, stored)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{SSHA512}",
        "{SSHA512}not base64!",
        "{SSHA512}AAAA",
        "{SHA}AAAA",
        "{PBKDF2}",
        "{PBKDF2}10000$$",
        "{PBKDF2}x$c2FsdA$SwB5AbdlSJq.rUnZJvch0GWkKcE",
        "{PBKDF2}-1$c2FsdA$SwB5AbdlSJq.rUnZJvch0GWkKcE",
        "{PBKDF2}4096$c2FsdA$SwB5AbdlSJq",
        "{PBKDF2-HMAC-SHA256}10000:AAAA",
        "{PBKDF2-HMAC-SHA256}:",
        "{BCRYPT}$2b$05$short",
        "{BCRYPT}$2b$xx$CCCCCCCCCCCCCCCCCCCCC.pIKrLVkBX9/OvQMSygY1pWEVn72t6na",
        "{ARGON2}$argon2id$v=19$m=19456,t=2,p=1$MDEyMzQ1Njc4OWFiY2RlZg",
        "{ARGON2}$argon2x$v=19$m=19456,t=2,p=1$MDEyMzQ1Njc4OWFiY2RlZg$8qPpaWig0H31wvibKAgpght2Ry2M",
        "{ARGON2}$argon2id$v=19$m=19456,t=2$MDEyMzQ1Njc4OWFiY2RlZg$8qPpaWig0H31wvibKAgpght2Ry2M",
        "{CRYPT}",
        "{CRYPT}$y$j9T$F5Jx5fExrKuPp53xLKQ..1$X3DX6M94c7o.9agCG9G317fhZg9SqC.5i5rd",
        "{CRYPT}$6$",
        "{CRYPT}!!",
        "{CLEAR}"
      })
  void verify_malformedStoredValue_isFalseNotAnException(String stored) {
    assertThat(clearAllowed.verify("secret".getBytes(US_ASCII), stored.getBytes(US_ASCII)))
        .isFalse();
  }

  @Test
  void toStoredValue_clearText_isHashedWithTheDefaultScheme() throws LDAPException {
    byte[] stored = defaults.toStoredValue(PASSWORD);

    assertThat(new String(stored, US_ASCII)).startsWith("{SSHA512}");
    assertThat(defaults.verify(PASSWORD, stored)).isTrue();
  }

  @Test
  void toStoredValue_knownScheme_isKeptByteForByte() throws LDAPException {
    byte[] fromOpenLdap =
        "{PBKDF2-SHA256}10000$yjLHEGZx9Gp/YXdo3pmEbw$.AEO0mVG0vSHHBGrqWYgDZaIf0jbblzBpK4Cl6Vxo5M"
            .getBytes(US_ASCII);

    assertThat(defaults.toStoredValue(fromOpenLdap)).isEqualTo(fromOpenLdap);
  }

  @Test
  void toStoredValue_labelledClearTextWhileClearIsDisabled_isRefusedAsADisabledScheme() {
    assertThatThrownBy(() -> defaults.toStoredValue("{clear}secret".getBytes(US_ASCII)))
        .isInstanceOfSatisfying(
            LDAPException.class,
            e -> {
              assertThat(e.getResultCode()).isEqualTo(ResultCode.CONSTRAINT_VIOLATION);
              assertThat(e.getMessage()).contains("{CLEAR}").contains("disabled");
            });
  }

  @Test
  void toStoredValue_labelledClearTextWhileClearIsEnabled_isKept() throws LDAPException {
    byte[] labelled = "{CLEAR}secret".getBytes(US_ASCII);

    assertThat(clearAllowed.toStoredValue(labelled)).isEqualTo(labelled);
  }

  @Test
  void toStoredValue_unknownScheme_isAConstraintViolation() {
    assertThatThrownBy(() -> defaults.toStoredValue("{SASL}alice@EXAMPLE.COM".getBytes(US_ASCII)))
        .isInstanceOfSatisfying(
            LDAPException.class,
            e -> {
              assertThat(e.getResultCode()).isEqualTo(ResultCode.CONSTRAINT_VIOLATION);
              assertThat(e.getMessage()).contains("{SASL}");
            });
  }

  @Test
  void toStoredValue_disabledScheme_isAConstraintViolation() {
    PasswordSchemes md5Disabled = withDisabled(Set.of("MD5", "CLEAR"));

    assertThatThrownBy(
            () -> md5Disabled.toStoredValue("{MD5}Xr4ilOzQ4PCOq3aQ0qbuaQ==".getBytes(US_ASCII)))
        .isInstanceOfSatisfying(
            LDAPException.class,
            e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.CONSTRAINT_VIOLATION));
  }

  @Test
  void toStoredValue_emptyPassword_isAConstraintViolation() {
    assertThatThrownBy(() -> defaults.toStoredValue(new byte[0])).isInstanceOf(LDAPException.class);
    assertThatThrownBy(() -> defaults.toStoredValue("{CLEAR}".getBytes(US_ASCII)))
        .isInstanceOf(LDAPException.class);
  }

  @Test
  void toStoredValue_braceThatIsNoSchemePrefix_isClearText() throws LDAPException {
    byte[] clear = "{not a scheme} but a password".getBytes(US_ASCII);

    byte[] stored = defaults.toStoredValue(clear);

    assertThat(defaults.verify(clear, stored)).isTrue();
  }

  @Test
  void constructor_clearAsDefaultWhileDisabled_isRefused() {
    assertThatThrownBy(
            () ->
                new PasswordSchemes(
                    new PasswordSchemeSettings(
                        "clear",
                        Set.of("CLEAR"),
                        10_000,
                        10,
                        PasswordSchemeSettings.Argon2Cost.OWASP)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("CLEAR");
  }

  @Test
  void constructor_unknownSchemeName_isRefusedWithTheKnownOnes() {
    assertThatThrownBy(() -> withDefault("SSHA1024"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("SSHA1024")
        .hasMessageContaining("SSHA512");
    assertThatThrownBy(() -> withDisabled(Set.of("NOPE")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("NOPE");
  }

  private static PasswordSchemes withDefault(String scheme) {
    return new PasswordSchemes(
        new PasswordSchemeSettings(
            scheme, Set.of(), 10_000, 10, PasswordSchemeSettings.Argon2Cost.OWASP));
  }

  private static PasswordSchemes withDisabled(Set<String> disabled) {
    return new PasswordSchemes(
        new PasswordSchemeSettings(
            "SSHA512", disabled, 10_000, 10, PasswordSchemeSettings.Argon2Cost.OWASP));
  }
}
