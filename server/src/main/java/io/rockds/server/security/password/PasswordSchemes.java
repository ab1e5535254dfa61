package io.rockds.server.security.password;

import static io.rockds.server.security.password.Pbkdf2Scheme.Layout.OPENDJ;
import static io.rockds.server.security.password.Pbkdf2Scheme.Layout.OPENLDAP;
import static java.nio.charset.StandardCharsets.ISO_8859_1;

import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The password storage schemes of one server: hashes {@code userPassword} values on their way into
 * storage and checks simple-bind passwords against them. Thread-safe.
 *
 * <p>Values are byte strings, as {@code userPassword} is an octet string: {@code {SCHEME}payload},
 * the scheme name matched case-insensitively. Rules:
 *
 * <ul>
 *   <li>A value without a prefix is clear text, exactly like {@code {CLEAR}}: it verifies only
 *       while CLEAR is enabled (disabled by default), and is hashed with the default scheme on its
 *       way in.
 *   <li>A value whose prefix names a known, enabled scheme is stored unchanged, so LDIF exported
 *       from OpenLDAP or OpenDJ keeps working.
 *   <li>A known scheme that is disabled verifies nothing, and a new value using it is refused:
 *       {@code {CLEAR}secret} too while CLEAR is disabled, as OpenDJ refuses a pre-encoded value of
 *       a disabled scheme (a client wanting the server to hash sends the bare password).
 *   <li>A prefix naming no scheme we know ({@code {SASL}}, {@code {K5KEY}}, a typo) never verifies
 *       and is refused on the way in. Treating it as clear text would make the literal string,
 *       often guessable, the password.
 * </ul>
 *
 * <p>Scheme families: salted and plain SHA-1/SHA-2/MD5 ({@link DigestScheme}), PBKDF2 in OpenLDAP
 * and OpenDJ layouts ({@link Pbkdf2Scheme}), BCRYPT, ARGON2, CRYPT and CLEAR. An empty password
 * never verifies; RFC 4513 section 5.1.2 makes such a bind unauthenticated, which is the bind
 * operation's business.
 */
public final class PasswordSchemes {

  private final Map<String, PasswordStorageScheme> known;
  private final Set<String> disabled;
  private final PasswordStorageScheme defaultScheme;

  /**
   * A hash no password matches, made on first use ({@link #verifyDecoy}); racing makers are
   * harmless.
   */
  private volatile byte[] decoy;

  /**
   * @throws IllegalArgumentException if the default scheme or a disabled scheme is unknown
   */
  public PasswordSchemes(PasswordSchemeSettings settings) {
    this.known =
        all(settings, new SecureRandom()).stream()
            .collect(
                Collectors.toUnmodifiableMap(PasswordStorageScheme::name, Function.identity()));
    for (String name : settings.disabledSchemes()) {
      requireKnown("disabledSchemes", name);
    }
    this.disabled = settings.disabledSchemes();
    this.defaultScheme = requireKnown("defaultScheme", settings.defaultScheme());
  }

  /**
   * Hashes a clear-text password with the default scheme.
   *
   * @return {@code {SCHEME}payload}
   * @throws IllegalArgumentException if {@code clear} is empty
   */
  public byte[] encode(byte[] clear) {
    if (clear.length == 0) {
      throw new IllegalArgumentException("clear: empty (expected: at least one byte)");
    }
    String payload = defaultScheme.encode(clear);
    return ("{" + defaultScheme.name() + "}" + payload).getBytes(ISO_8859_1);
  }

  /** Whether {@code clear} is the password stored as {@code stored}; never throws on bad data. */
  public boolean verify(byte[] clear, byte[] stored) {
    if (clear.length == 0) {
      return false;
    }
    Optional<PrefixedValue> prefixed = PrefixedValue.parse(stored);
    String schemeName = prefixed.map(PrefixedValue::scheme).orElse(ClearScheme.NAME);
    String payload = prefixed.map(PrefixedValue::payload).orElse(new String(stored, ISO_8859_1));
    PasswordStorageScheme scheme = known.get(schemeName);
    return scheme != null && !disabled.contains(schemeName) && scheme.verify(clear, payload);
  }

  /**
   * Whether {@link #verify} against {@code stored} is quick: its scheme verifies quickly, or it
   * names no enabled scheme (then nothing is computed).
   */
  public boolean verifiesQuickly(byte[] stored) {
    String schemeName =
        PrefixedValue.parse(stored).map(PrefixedValue::scheme).orElse(ClearScheme.NAME);
    PasswordStorageScheme scheme = known.get(schemeName);
    return scheme == null || disabled.contains(schemeName) || scheme.verifiesQuickly();
  }

  /** Whether {@link #verifyDecoy} is quick: the default scheme verifies quickly. */
  public boolean decoyVerifiesQuickly() {
    return defaultScheme.verifiesQuickly();
  }

  /**
   * Verifies {@code clear} against a hash of a random password made with the default scheme, and
   * ignores the outcome: an authentication for a name that matches no user costs what a real one
   * costs, so response times do not tell which users exist.
   */
  public void verifyDecoy(byte[] clear) {
    byte[] decoy = this.decoy;
    if (decoy == null) {
      byte[] random = new byte[16];
      new SecureRandom().nextBytes(random);
      decoy = encode(HexFormat.of().formatHex(random).getBytes(ISO_8859_1));
      this.decoy = decoy;
    }
    verify(clear.length == 0 ? new byte[] {0} : clear, decoy);
  }

  /** Whether {@code value} starts with the prefix of a scheme we know, enabled or not. */
  public boolean isEncoded(byte[] value) {
    return PrefixedValue.parse(value).map(p -> known.containsKey(p.scheme())).orElse(false);
  }

  /**
   * The form in which a {@code userPassword} value arriving by add, modify or import is stored:
   * clear text hashed with the default scheme, a value already carrying an enabled scheme as is.
   *
   * @throws LDAPException constraint violation for an empty value, a disabled scheme or a prefix
   *     naming no known scheme
   */
  public byte[] toStoredValue(byte[] value) throws LDAPException {
    Optional<PrefixedValue> prefixed = PrefixedValue.parse(value);
    if (prefixed.isEmpty()) {
      return encodeIncoming(value);
    }
    String schemeName = prefixed.get().scheme();
    boolean enabled = !disabled.contains(schemeName);
    if (!known.containsKey(schemeName)) {
      throw new LDAPException(
          ResultCode.CONSTRAINT_VIOLATION,
          "userPassword: unknown password storage scheme {" + schemeName + "}");
    }
    if (!enabled) {
      throw new LDAPException(
          ResultCode.CONSTRAINT_VIOLATION,
          "userPassword: password storage scheme {" + schemeName + "} is disabled");
    }
    return value;
  }

  private byte[] encodeIncoming(byte[] clear) throws LDAPException {
    if (clear.length == 0) {
      throw new LDAPException(ResultCode.CONSTRAINT_VIOLATION, "userPassword: empty password");
    }
    return encode(clear);
  }

  private PasswordStorageScheme requireKnown(String setting, String name) {
    PasswordStorageScheme scheme = known.get(name);
    if (scheme == null) {
      throw new IllegalArgumentException(
          setting + ": " + name + " (expected one of: " + known.keySet() + ")");
    }
    return scheme;
  }

  private static List<PasswordStorageScheme> all(
      PasswordSchemeSettings settings, SecureRandom random) {
    int iterations = settings.pbkdf2Iterations();
    BcryptScheme bcrypt = new BcryptScheme(settings.bcryptCost(), random);
    return List.of(
        new DigestScheme("SSHA", "SHA-1", true, random),
        new DigestScheme("SSHA256", "SHA-256", true, random),
        new DigestScheme("SSHA384", "SHA-384", true, random),
        new DigestScheme("SSHA512", "SHA-512", true, random),
        new DigestScheme("SMD5", "MD5", true, random),
        new DigestScheme("SHA", "SHA-1", false, random),
        new DigestScheme("SHA256", "SHA-256", false, random),
        new DigestScheme("SHA384", "SHA-384", false, random),
        new DigestScheme("SHA512", "SHA-512", false, random),
        new DigestScheme("MD5", "MD5", false, random),
        new Pbkdf2Scheme("PBKDF2", "HmacSHA1", OPENLDAP, iterations, random),
        new Pbkdf2Scheme("PBKDF2-SHA1", "HmacSHA1", OPENLDAP, iterations, random),
        new Pbkdf2Scheme("PBKDF2-SHA256", "HmacSHA256", OPENLDAP, iterations, random),
        new Pbkdf2Scheme("PBKDF2-SHA512", "HmacSHA512", OPENLDAP, iterations, random),
        new Pbkdf2Scheme("PBKDF2-HMAC-SHA256", "HmacSHA256", OPENDJ, iterations, random),
        new Pbkdf2Scheme("PBKDF2-HMAC-SHA512", "HmacSHA512", OPENDJ, iterations, random),
        bcrypt,
        new Argon2Scheme(settings.argon2Cost(), random),
        new CryptScheme(bcrypt, random),
        new ClearScheme());
  }
}
