package io.rockds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.util.ssl.SSLUtil;
import com.unboundid.util.ssl.TrustAllTrustManager;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import javax.naming.Context;
import javax.naming.NameNotFoundException;
import javax.naming.NamingEnumeration;
import javax.naming.directory.Attribute;
import javax.naming.directory.BasicAttribute;
import javax.naming.directory.BasicAttributes;
import javax.naming.directory.DirContext;
import javax.naming.directory.ModificationItem;
import javax.naming.directory.SearchControls;
import javax.naming.directory.SearchResult;
import javax.naming.ldap.ExtendedRequest;
import javax.naming.ldap.ExtendedResponse;
import javax.naming.ldap.InitialLdapContext;
import javax.naming.ldap.LdapContext;
import javax.naming.ldap.StartTlsRequest;
import javax.naming.ldap.StartTlsResponse;
import javax.net.SocketFactory;
import javax.net.ssl.SSLSocketFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every operation JNDI offers (javax.naming.ldap, in the JDK), over plain LDAP, LDAPS and StartTLS.
 */
// JNDI is the client under test here: Error Prone bans it in production code, not in this check.
@SuppressWarnings("BanJNDI")
class JndiClientIT {
  private static final String PEOPLE = "ou=People," + TestServer.BASE;
  @TempDir static Path dir;
  static TestServer server;

  enum Transport {
    PLAIN,
    LDAPS,
    START_TLS
  }

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.start(dir, TestServer.baseEntries());
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /**
   * The socket factory JNDI instantiates by name for LDAPS: trusts the test server's self-signed
   * certificate.
   */
  public static final class TrustingSocketFactory extends SocketFactory {
    private static final SSLSocketFactory DELEGATE = create();

    private static SSLSocketFactory create() {
      try {
        return new SSLUtil(new TrustAllTrustManager()).createSSLSocketFactory("TLSv1.3");
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException(e);
      }
    }

    public static SocketFactory getDefault() {
      return new TrustingSocketFactory();
    }

    @Override
    public java.net.Socket createSocket() throws java.io.IOException {
      return DELEGATE.createSocket();
    }

    @Override
    public java.net.Socket createSocket(String host, int port) throws java.io.IOException {
      return DELEGATE.createSocket(host, port);
    }

    @Override
    public java.net.Socket createSocket(
        String host, int port, java.net.InetAddress local, int localPort)
        throws java.io.IOException {
      return DELEGATE.createSocket(host, port, local, localPort);
    }

    @Override
    public java.net.Socket createSocket(java.net.InetAddress host, int port)
        throws java.io.IOException {
      return DELEGATE.createSocket(host, port);
    }

    @Override
    public java.net.Socket createSocket(
        java.net.InetAddress address, int port, java.net.InetAddress local, int localPort)
        throws java.io.IOException {
      return DELEGATE.createSocket(address, port, local, localPort);
    }
  }

  /** Who am I? (RFC 4532) as a JNDI extended request. */
  private static final class WhoAmI implements ExtendedRequest {
    private static final long serialVersionUID = 1L;
    private byte[] value;

    @Override
    public String getID() {
      return "1.3.6.1.4.1.4203.1.11.3";
    }

    @Override
    public byte[] getEncodedValue() {
      return null;
    }

    @Override
    public ExtendedResponse createExtendedResponse(
        String id, byte[] berValue, int offset, int length) {
      value = java.util.Arrays.copyOfRange(berValue, offset, offset + length);
      return new ExtendedResponse() {
        private static final long serialVersionUID = 1L;

        @Override
        public String getID() {
          return id;
        }

        @Override
        public byte[] getEncodedValue() {
          return value;
        }
      };
    }
  }

  private static LdapContext connect(Transport transport) throws Exception {
    Hashtable<String, Object> env = new Hashtable<>();
    env.put(Context.INITIAL_CONTEXT_FACTORY, "com.sun.jndi.ldap.LdapCtxFactory");
    if (transport == Transport.LDAPS) {
      env.put(Context.PROVIDER_URL, "ldaps://127.0.0.1:" + server.ldapsPort());
      env.put("java.naming.ldap.factory.socket", TrustingSocketFactory.class.getName());
    } else {
      env.put(Context.PROVIDER_URL, "ldap://127.0.0.1:" + server.ldapPort());
    }
    if (transport != Transport.START_TLS) {
      env.put(Context.SECURITY_AUTHENTICATION, "simple");
      env.put(Context.SECURITY_PRINCIPAL, TestServer.ROOT_DN);
      env.put(Context.SECURITY_CREDENTIALS, TestServer.ROOT_PASSWORD);
      return new InitialLdapContext(env, null);
    }
    LdapContext context = new InitialLdapContext(env, null);
    StartTlsResponse tls = (StartTlsResponse) context.extendedOperation(new StartTlsRequest());
    tls.setHostnameVerifier((host, session) -> true);
    tls.negotiate(TrustingSocketFactory.DELEGATE);
    context.addToEnvironment(Context.SECURITY_AUTHENTICATION, "simple");
    context.addToEnvironment(Context.SECURITY_PRINCIPAL, TestServer.ROOT_DN);
    context.addToEnvironment(Context.SECURITY_CREDENTIALS, TestServer.ROOT_PASSWORD);
    context.reconnect(null);
    return context;
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void everyOperation(Transport transport) throws Exception {
    String uid = "jndi-" + transport.name().toLowerCase();
    String dn = "uid=" + uid + "," + PEOPLE;
    LdapContext context = connect(transport);
    try {
      WhoAmI whoAmI = new WhoAmI();
      context.extendedOperation(whoAmI);
      assertThat(new String(whoAmI.value, java.nio.charset.StandardCharsets.UTF_8))
          .isEqualTo("dn:" + TestServer.ROOT_DN);

      BasicAttributes attributes = new BasicAttributes(true);
      BasicAttribute objectClass = new BasicAttribute("objectClass");
      objectClass.add("top");
      objectClass.add("inetOrgPerson");
      attributes.put(objectClass);
      attributes.put("uid", uid);
      attributes.put("cn", "First");
      attributes.put("sn", "Smith");
      context.createSubcontext(dn, attributes).close();

      SearchControls controls = new SearchControls();
      controls.setSearchScope(SearchControls.ONELEVEL_SCOPE);
      controls.setReturningAttributes(new String[] {"cn"});
      assertThat(search(context, PEOPLE, "(uid=" + uid + ")", controls))
          .containsExactly("cn: First");

      context.modifyAttributes(
          dn,
          new ModificationItem[] {
            new ModificationItem(DirContext.REPLACE_ATTRIBUTE, new BasicAttribute("cn", "Second"))
          });
      // JNDI's compare: a base-object search with an equality filter and no attributes.
      SearchControls compare = new SearchControls();
      compare.setSearchScope(SearchControls.OBJECT_SCOPE);
      compare.setReturningAttributes(new String[0]);
      assertThat(search(context, dn, "(cn=Second)", compare)).hasSize(1);

      String renamed = "uid=" + uid + "-renamed," + PEOPLE;
      context.rename(dn, renamed);
      assertThat(context.getAttributes(renamed, new String[] {"cn"}).get("cn").get())
          .isEqualTo("Second");
      context.destroySubcontext(renamed);
      assertThatThrownBy(() -> context.getAttributes(renamed))
          .isInstanceOf(NameNotFoundException.class);
    } finally {
      context.close(); // unbind
    }
  }

  private static List<String> search(
      LdapContext context, String base, String filter, SearchControls controls) throws Exception {
    List<String> values = new ArrayList<>();
    NamingEnumeration<SearchResult> results = context.search(base, filter, controls);
    while (results.hasMore()) {
      SearchResult result = results.next();
      NamingEnumeration<? extends Attribute> all = result.getAttributes().getAll();
      if (!all.hasMore()) {
        values.add(result.getNameInNamespace());
      }
      while (all.hasMore()) {
        Attribute attribute = all.next();
        values.add(attribute.getID() + ": " + attribute.get());
      }
    }
    return values;
  }
}
