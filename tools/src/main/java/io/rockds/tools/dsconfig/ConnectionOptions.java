package io.rockds.tools.dsconfig;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.extensions.StartTLSExtendedRequest;
import com.unboundid.util.ssl.SSLUtil;
import com.unboundid.util.ssl.TrustAllTrustManager;
import io.rockds.config.ConfigException;
import io.rockds.server.Instance;
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
 * The options every dsconfig subcommand accepts, with OpenDJ's names; they may come before or
 * after the subcommand.
 */
final class ConnectionOptions {
  @Option(names = {"-h", "--hostname"}, scope = ScopeType.INHERIT, description = "Server host (default: localhost).")
  String host = "localhost";

  @Option(names = {"-p", "--port"}, scope = ScopeType.INHERIT,
      description = "Server LDAP or LDAPS port (default: 1389); RockDS serves cn=config on its LDAP ports.")
  int port = 1389;

  @Option(names = {"-D", "--bindDN"}, scope = ScopeType.INHERIT,
      description = "DN to bind with (default: cn=Directory Manager).")
  String bindDn = "cn=Directory Manager";

  @Option(names = {"-w", "--bindPassword"}, scope = ScopeType.INHERIT, description = "Bind password.")
  String bindPassword;

  @Option(names = {"-j", "--bindPasswordFile"}, scope = ScopeType.INHERIT, description = "File holding the bind password.")
  Path bindPasswordFile;

  @Option(names = {"-Z", "--useSSL"}, scope = ScopeType.INHERIT, description = "Connect with LDAPS.")
  boolean useSsl;

  @Option(names = {"-q", "--useStartTLS"}, scope = ScopeType.INHERIT, description = "Use StartTLS.")
  boolean useStartTls;

  @Option(names = {"-X", "--trustAll"}, scope = ScopeType.INHERIT,
      description = "Trust any server certificate (self-signed test servers).")
  boolean trustAll;

  @Option(names = {"-n", "--no-prompt"}, scope = ScopeType.INHERIT,
      description = "Non-interactive: never prompt, run the subcommand given.")
  boolean noPrompt;

  @Option(names = {"-s", "--script-friendly"}, scope = ScopeType.INHERIT,
      description = "Tab-separated output without headers, for scripts.")
  boolean scriptFriendly;

  @Option(names = "--offline", scope = ScopeType.INHERIT,
      description = "Edit config/config.ldif of a stopped server instead of connecting.")
  boolean offline;

  @Option(names = "--instance", scope = ScopeType.INHERIT,
      description = "Instance directory for --offline (default: instance).")
  Path instance = Path.of("instance");

  /** Opens the configuration: the instance's file with {@code --offline}, else an LDAP connection. */
  ConfigConnection open() throws LDAPException, ConfigException, IOException, GeneralSecurityException {
    if (offline) {
      return OfflineConfigConnection.open(new Instance(instance));
    }
    String password = password();
    LDAPConnection connection;
    SSLContext ssl = useSsl || useStartTls ? sslUtil().createSSLContext() : null;
    try {
      connection = useSsl ? new LDAPConnection(ssl.getSocketFactory(), host, port) : new LDAPConnection(host, port);
    } catch (LDAPException e) {
      throw new ConfigException("cannot connect to " + host + ":" + port + ": " + rootCause(e), e);
    }
    try {
      if (useStartTls) {
        ResultCode tls = connection.processExtendedOperation(new StartTLSExtendedRequest(ssl)).getResultCode();
        if (tls != ResultCode.SUCCESS) {
          throw new LDAPException(tls, "StartTLS failed");
        }
      }
      connection.bind(bindDn, password);
    } catch (LDAPException e) {
      connection.close();
      throw e;
    }
    return new LdapConfigConnection(connection);
  }

  /** The innermost reason, e.g. "Connection refused"; a certificate failure says how to proceed. */
  private String rootCause(Throwable e) {
    Throwable root = e;
    for (int depth = 0; root.getCause() != null && depth < 10; depth++) {
      root = root.getCause();
    }
    if (root instanceof SSLException || root instanceof GeneralSecurityException
        || String.valueOf(root.getMessage()).contains("certification path")) {
      return "the server's certificate is not trusted (add -X to trust any certificate, for test servers)";
    }
    return root.getMessage() != null ? root.getMessage() : root.toString();
  }

  private SSLUtil sslUtil() {
    return trustAll ? new SSLUtil(new TrustAllTrustManager()) : new SSLUtil();
  }

  private String password() throws IOException, ConfigException {
    if (bindPassword != null) {
      return bindPassword;
    }
    if (bindPasswordFile != null) {
      return Files.readString(bindPasswordFile, StandardCharsets.UTF_8).strip();
    }
    Console console = System.console();
    if (console != null && !noPrompt) {
      char[] typed = console.readPassword("Password for user '%s': ", bindDn);
      if (typed != null) {
        return new String(typed);
      }
    }
    throw new ConfigException("no bind password: give -w or -j");
  }
}
