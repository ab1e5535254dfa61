package io.rockds.benchmarks.security;

import com.unboundid.ldap.sdk.ExtendedResult;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SimpleBindRequest;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedRequest;

/**
 * How many passwords an anonymous client can try against one account through Password Modify (RFC
 * 3062) with a wrong old password, and whether the right one still binds afterwards (if not, the
 * account locked and the guesses after the lock could not have found the password). Bounded in
 * count and time; loopback only.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.rockds.benchmarks.security.PasswordGuessRate \
 *     --port 1389 --dn uid=user.1,ou=People,dc=example,dc=com --password password.1 --seconds 5
 * # or, with only the SDK on the class path (to measure an older build):
 * java -cp unboundid-ldapsdk.jar benchmarks/src/main/java/io/rockds/benchmarks/security/PasswordGuessRate.java ...
 * </pre>
 */
public final class PasswordGuessRate {
  private static final int MAX_GUESSES = 1_000_000;

  private PasswordGuessRate() {}

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(option(args, "--port", "1389"));
    String dn = option(args, "--dn", "uid=user.1,ou=People,dc=example,dc=com");
    String password = option(args, "--password", "password.1");
    int seconds = Integer.parseInt(option(args, "--seconds", "5"));
    long guesses = 0;
    long started = System.nanoTime();
    long deadline = started + seconds * 1_000_000_000L;
    try (LDAPConnection anonymous = new LDAPConnection("127.0.0.1", port)) {
      while (System.nanoTime() < deadline && guesses < MAX_GUESSES) {
        ExtendedResult wrong =
            anonymous.processExtendedOperation(
                new PasswordModifyExtendedRequest(
                    dn, "wrong-" + guesses, "new-password-" + guesses));
        guesses++;
        if (wrong.getResultCode() == ResultCode.SUCCESS) {
          throw new IllegalStateException("a wrong old password was accepted");
        }
      }
    }
    double elapsed = (System.nanoTime() - started) / 1e9;
    // Only at the end: a successful bind would clear the failures the guesses counted.
    boolean stillAccepted;
    try (LDAPConnection probe = new LDAPConnection("127.0.0.1", port)) {
      stillAccepted =
          probe.bind(new SimpleBindRequest(dn, password)).getResultCode() == ResultCode.SUCCESS;
    } catch (LDAPException e) {
      stillAccepted = false;
    }
    System.out.printf(
        "attempts=%d in %.1f s (%.0f/s), every one answered invalidCredentials; right password"
            + " accepted afterwards: %s%n",
        guesses,
        elapsed,
        guesses / elapsed,
        stillAccepted
            ? "yes (no lockout:" + " every attempt was a real guess)"
            : "no (the account locked: at most lockout-failure-count guesses per"
                + " lockout-duration)");
  }

  private static String option(String[] args, String name, String fallback) {
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals(name)) {
        return args[i + 1];
      }
    }
    return fallback;
  }
}
