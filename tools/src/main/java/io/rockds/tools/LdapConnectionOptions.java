package io.rockds.tools;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.extensions.StartTLSExtendedRequest;
import com.unboundid.util.ssl.SSLUtil;
import com.unboundid.util.ssl.TrustAllTrustManager;
import java.io.Console;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The options of every tool that connects to a running server, with OpenDJ's names: {@code -h}
 * host, {@code -p} port, {@code -D}/{@code -w}/{@code -j} bind, {@code -Z} LDAPS, {@code -q}
 * StartTLS, {@code -X} trust any certificate. Mixed into a command with {@code @Mixin}; the options
 * are inherited by its subcommands (dsconfig takes them before or after the subcommand).
 */
public final class LdapConnectionOptions {
  /** OpenDJ's and RockDS's default LDAP port. */
  public static final int DEFAULT_PORT = 1389;

  @Option(
      names = {"-h", "--hostname"},
      paramLabel = "<host>",
      scope = ScopeType.INHERIT,
      description = "Server host name or address (default: localhost).")
  String host;

  @Option(
      names = {"-p", "--port"},
      paramLabel = "<port>",
      scope = ScopeType.INHERIT,
      description = "Server LDAP or LDAPS port (default: " + DEFAULT_PORT + ").")
  Integer port;

  @Option(
      names = {"-D", "--bindDN"},
      paramLabel = "<bindDN>",
      scope = ScopeType.INHERIT,
      description = "DN to bind with (default: cn=Directory Manager).")
  String bindDn;

  @Option(
      names = {"-w", "--bindPassword"},
      paramLabel = "<password>",
      scope = ScopeType.INHERIT,
      description = "Bind password.")
  String bindPassword;

  @Option(
      names = {"-j", "--bindPasswordFile"},
      paramLabel = "<file>",
      scope = ScopeType.INHERIT,
      description = "File holding the bind password.")
  Path bindPasswordFile;

  @Option(
      names = {"-Z", "--useSSL"},
      scope = ScopeType.INHERIT,
      description = "Connect with LDAPS.")
  boolean useSsl;

  @Option(
      names = {"-q", "--useStartTLS"},
      scope = ScopeType.INHERIT,
      description = "Use StartTLS.")
  boolean useStartTls;

  @Option(
      names = {"-X", "--trustAll"},
      scope = ScopeType.INHERIT,
      description = "Trust any server certificate (self-signed test servers).")
  boolean trustAll;

  public String host() {
    return host != null ? host : "localhost";
  }

  public int port() {
    return port != null ? port : DEFAULT_PORT;
  }

  public String bindDn() {
    return bindDn != null ? bindDn : "cn=Directory Manager";
  }

  /**
   * True when the command line names a server (host, port or a bind password): tools that work both
   * on a stopped instance and through a running server go online then.
   */
  public boolean namesServer() {
    return host != null || port != null || bindPassword != null || bindPasswordFile != null;
  }

  /**
   * Sets the target when the command line did not, e.g. status reading the instance's own listener.
   */
  public void defaultTo(String defaultHost, int defaultPort) {
    if (host == null) {
      host = defaultHost;
    }
    if (port == null) {
      port = defaultPort;
    }
  }

  /** The password from -w, -j, else {@code $ROCKDS_ROOT_PASSWORD}, else null. */
  public String password() throws IOException {
    if (bindPassword != null) {
      return bindPassword;
    }
    if (bindPasswordFile != null) {
      return Files.readString(bindPasswordFile, StandardCharsets.UTF_8).strip();
    }
    String fromEnv = System.getenv("ROCKDS_ROOT_PASSWORD");
    return fromEnv == null || fromEnv.isEmpty() ? null : fromEnv;
  }

  /**
   * The password, asked on the terminal when none was given and {@code prompt} allows it.
   *
   * @throws IllegalArgumentException when there is none
   */
  public String requirePassword(boolean prompt) throws IOException {
    String password = password();
    if (password != null) {
      return password;
    }
    Console console = System.console();
    if (console != null && prompt) {
      char[] typed = console.readPassword("Password for user '%s': ", bindDn());
      if (typed != null) {
        return new String(typed);
      }
    }
    throw new IllegalArgumentException("no bind password: give -w or -j");
  }

  /** Connects (LDAPS or StartTLS as asked) without binding. */
  public LDAPConnection connect() throws LDAPException, GeneralSecurityException {
    SSLContext ssl = useSsl || useStartTls ? sslUtil().createSSLContext() : null;
    LDAPConnection connection;
    try {
      connection =
          useSsl
              ? new LDAPConnection(ssl.getSocketFactory(), host(), port())
              : new LDAPConnection(host(), port());
    } catch (LDAPException e) {
      throw new LDAPException(
          e.getResultCode(), "cannot connect to " + host() + ":" + port() + ": " + rootCause(e), e);
    }
    if (useStartTls) {
      try {
        ResultCode tls =
            connection.processExtendedOperation(new StartTLSExtendedRequest(ssl)).getResultCode();
        if (tls != ResultCode.SUCCESS) {
          throw new LDAPException(tls, "StartTLS failed: " + tls);
        }
      } catch (LDAPException e) {
        connection.close();
        throw new LDAPException(
            e.getResultCode(),
            "StartTLS with " + host() + ":" + port() + " failed: " + rootCause(e),
            e);
      }
    }
    return connection;
  }

  /** Connects and binds as {@code -D} with the password ({@link #requirePassword}). */
  public LDAPConnection connectAndBind(boolean prompt)
      throws LDAPException, GeneralSecurityException, IOException {
    String password = requirePassword(prompt);
    LDAPConnection connection = connect();
    try {
      connection.bind(bindDn(), password);
      return connection;
    } catch (LDAPException e) {
      connection.close();
      throw e;
    }
  }

  /** The innermost reason, e.g. "Connection refused"; a certificate failure says how to proceed. */
  private static String rootCause(Throwable e) {
    Throwable root = e;
    for (int depth = 0; root.getCause() != null && depth < 10; depth++) {
      root = root.getCause();
    }
    if (root instanceof SSLException
        || root instanceof GeneralSecurityException
        || String.valueOf(root.getMessage()).contains("certification path")) {
      return "the server's certificate is not trusted (add -X to trust any certificate, for test servers)";
    }
    return root.getMessage() != null ? root.getMessage() : root.toString();
  }

  private SSLUtil sslUtil() {
    return trustAll ? new SSLUtil(new TrustAllTrustManager()) : new SSLUtil();
  }
}
