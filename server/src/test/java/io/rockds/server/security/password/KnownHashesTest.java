package io.rockds.server.security.password;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Stored values written by other implementations verify, and the wrong password does not. Each
 * vector names its origin; none was produced by our own code.
 */
class KnownHashesTest {

  /** Every scheme enabled, CLEAR included, so that nothing is refused for configuration reasons. */
  private final PasswordSchemes schemes =
      new PasswordSchemes(
          new PasswordSchemeSettings(
              "SSHA512", Set.of(), 10_000, 10, PasswordSchemeSettings.Argon2Cost.OWASP));

  static Stream<Arguments> vectors() {
    return Stream.of(
        // slappasswd 2.5.13 (Debian 12 slapd), core schemes: slappasswd -s secret -h {X}
        vector("secret", "{SSHA}LVFBO/x8p+9jNwKrEVGkdxtRGYU8KZ3K"),
        vector("secret", "{SHA}5en6G6MezRroT3XKqkdPOmY/BfQ="),
        vector("secret", "{SMD5}uoc0NucsbMea/pNYNd7M6P4KyRE="),
        vector("secret", "{MD5}Xr4ilOzQ4PCOq3aQ0qbuaQ=="),
        vector("secret", "{CRYPT}wo5sKR1KsgXKI"),
        // Debian's default {CRYPT} on a password over 8 bytes is bigcrypt (long salt, libxcrypt)
        vector(
            "p\u00e4ssw\u00f6rd \u2713 \u5bc6\u7801", "{CRYPT}iwlfLLCdgC5pMwYmj/6oBBf2tXwmgBT1pNo"),
        vector(
            "secret",
            "{CRYPT}$6$yAG3ej9h2CkDW0q4$b9WbFl2IJbSRiOWnq8lQLxbOPNrYRachwDFwu7xfcuiijit/ez3DJ2m."
                + "kgqmudHCPQdFifXSwiTvZEYUo4l2L1"),
        vector("secret", "{CRYPT}$2b$05$/aiW8WvcTINlrSZlepFRcuv4SWBo/Sk28xuSUdCAA613jzf0eTexu"),
        // slappasswd with pw-sha2
        vector("secret", "{SSHA256}OqH9EWc+kkna2oalAMcl5jaU9xJFWAb4sKQnPRGKGj5tocfqkSNeGA=="),
        vector(
            "secret",
            "{SSHA384}7Krfdtv4CvUlP22rBZFo+YceGqd4xhJ8unzdbWSei3L52baVUvVa9IDhJj3bUN7jKbHvVO0xATU="),
        vector(
            "secret",
            "{SSHA512}EQGjGO8pMjGmxVASK67X0h2RpWH1Jafve2WFw6Y9cs4uktdG9maQwmInAsspW4gF4z187J6DCEXP"
                + "LK781pwVR5KeI6txckVp"),
        vector(
            "secret",
            "{SHA512}vSsar3708Jvp9Szi2NWZZ02Bqp1qRCFpbcTZPdBhnWgs5WtNZKnvCXdhztmeD2cmW192CF5bDufKRpa"
                + "yrW/isg=="),
        // slappasswd with pw-pbkdf2 (slapd-contrib)
        vector("secret", "{PBKDF2}10000$C5g7o8ZhMGduf4G/UFVBFg$vUp2aLyTemlV9MHKtBixfCP9YdQ"),
        vector("secret", "{PBKDF2-SHA1}10000$DxL4BhtzmdMJ.camejfZPQ$HSvHNxoxuepJ27sghltYCs/RRkw"),
        vector(
            "secret",
            "{PBKDF2-SHA256}10000$yjLHEGZx9Gp/YXdo3pmEbw$.AEO0mVG0vSHHBGrqWYgDZaIf0jbblzBpK4Cl6Vxo5M"),
        vector(
            "secret",
            "{PBKDF2-SHA512}10000$RY3L4SZ2ZsJnH3FH8jLeDQ$xLlNcSEKy9W9OWNMw9LBdMNxBg1hL2XTAEMpkVBiJbBZ"
                + "Z7jeGT2PVhSwEzElZdpw.gbWxJ/xbw8ZF3M8CbNE.w"),
        // slappasswd with the argon2 module (Debian links libargon2, which writes argon2i)
        vector(
            "secret",
            "{ARGON2}$argon2i$v=19$m=4096,t=3,p=1$mV/Zdmxu3CNiQaFEj+XPQA$3YDa2GkNRCivuXP8FvMLN8c9DHEA"
                + "0oRD7HMXm145pWk"),
        // libargon2 itself (argon2id_hash_encoded, argon2d_hash_encoded, argon2_hash version 16)
        vector(
            "secret",
            "{ARGON2}$argon2id$v=19$m=19456,t=2,p=1$MDEyMzQ1Njc4OWFiY2RlZg$8qPpaWig0H31wvibKAgpght2Ry"
                + "2M8rtRQYtZ93ooMus"),
        vector(
            "secret",
            "{ARGON2}$argon2d$v=19$m=4096,t=3,p=2$MDEyMzQ1Njc4OWFiY2RlZg$8//2kgSr5LdE175zpHoWBAQ6OBAH"
                + "+Xhz"),
        vector(
            "secret",
            "{ARGON2}$argon2id$v=16$m=1024,t=2,p=1$MDEyMzQ1Njc4OWFiY2RlZg$0nrTt/IiP7Y4q38x0kbMdnTc028"
                + "VZGk1afRIbu1td6g"),
        // the same version 16 value as libargon2 before 20160406 wrote it, without v=
        vector(
            "secret",
            "{ARGON2}$argon2id$m=1024,t=2,p=1$MDEyMzQ1Njc4OWFiY2RlZg$0nrTt/IiP7Y4q38x0kbMdnTc028VZGk1"
                + "afRIbu1td6g"),
        // libxcrypt (Debian 12 crypt(3))
        vector("secret", "{CRYPT}abNANd1rDfiNc"),
        vector("secretsecretsecret", "{CRYPT}abHr9elwESrHsxOcFHtlCJuE3.UIhJFvAuM"),
        vector("secret", "{CRYPT}$1$abcdefgh$cHJi5PXp/ki/ktXzqlk6I1"),
        vector("secret", "{CRYPT}$5$abcdefgh$gruCpC7VkOTspMQTTSAR8mtlO9Upms.fwqE5y16JVM."),
        vector(
            "secret",
            "{CRYPT}$6$rounds=10000$abcdefgh$dtkgtX8ow6kub/Iulo6m6YRiWBlfmJEeDmTXbQPwlPu6qBjkZV2Ix8Ce"
                + "H0sE3NMp3Sq63bHshmKLBUGe7mWYy/"),
        vector("secret", "{CRYPT}$2y$05$CCCCCCCCCCCCCCCCCCCCC.pIKrLVkBX9/OvQMSygY1pWEVn72t6na"),
        vector("secret", "{BCRYPT}$2b$05$CCCCCCCCCCCCCCCCCCCCC.pIKrLVkBX9/OvQMSygY1pWEVn72t6na"),
        // Openwall crypt_blowfish test vector, the $2a$ form OpenDJ's jBCrypt writes
        vector("U*U", "{BCRYPT}$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"),
        // RFC 6070 (PBKDF2-HMAC-SHA1) and RFC 7914 section 11 (PBKDF2-HMAC-SHA256), OpenLDAP layout
        vector("password", "{PBKDF2}4096$c2FsdA$SwB5AbdlSJq.rUnZJvch0GWkKcE"),
        vector("passwd", "{PBKDF2-SHA256}1$c2FsdA$VawEblbjCJ/sFpHCJUS2BflBhSFt3gRl5oudV8INrLw"),
        // OpenDJ as deployed by ForgeRock forgeops (make-users.sh: "password" encoded with PBKDF2)
        vector(
            "password",
            "{PBKDF2-HMAC-SHA256}10000:xKsMmlzVLRYdYzcgBuD3ZIAeSj8tNhjDHGFDqhth8Kcbw5qjL5UZxaiS2awL1HjO"),
        // OpenDJ layouts with its 8-byte salt, computed with Python's hashlib
        vector("password", "{PBKDF2}10000:T41lTyXtRsU7lOfmO3GLlxmYdnkBAgMEBQYHCA=="),
        vector(
            "password",
            "{PBKDF2-HMAC-SHA512}10000:DIxbh7pazVlFYBfwq1JjDh2UfiPKwkwenjgZS8CwDdxZ/WjCC+a/Q0Lb5yidS7"
                + "xBO2D8OAsgMlE0r0qpx/P9MgECAwQFBgcI"),
        vector(
            "password",
            "{SSHA512}cwNVhOuAAA1oPn+CL+wS1f0tPZracezN0yYU0xqYornXQBQ9qBELs44UJoU10/Tk7xHjUDA1r9zldr"
                + "cPUqHBNAECAwQFBgcI"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("vectors")
  void verify_acceptsThePasswordBehindAForeignHash(String password, String stored) {
    assertThat(schemes.verify(password.getBytes(UTF_8), stored.getBytes(US_ASCII))).isTrue();
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("vectors")
  void verify_rejectsAnotherPassword(String password, String stored) {
    assertThat(schemes.verify((password + "x").getBytes(UTF_8), stored.getBytes(US_ASCII)))
        .isFalse();
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("vectors")
  void isEncoded_recognisesTheForeignScheme(String password, String stored) {
    assertThat(schemes.isEncoded(stored.getBytes(US_ASCII))).isTrue();
  }

  private static Arguments vector(String password, String stored) {
    return Arguments.of(password, stored);
  }
}
