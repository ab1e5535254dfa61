package io.rockds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.AddRequest;
import com.unboundid.ldap.sdk.AsyncRequestID;
import com.unboundid.ldap.sdk.AsyncSearchResultListener;
import com.unboundid.ldap.sdk.BindResult;
import com.unboundid.ldap.sdk.CompareResult;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.ExtendedResult;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.PLAINBindRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultReference;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.SimpleBindRequest;
import com.unboundid.ldap.sdk.extensions.CancelExtendedRequest;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedRequest;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedResult;
import com.unboundid.ldap.sdk.extensions.StartTLSExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedResult;
import com.unboundid.util.ssl.SSLUtil;
import com.unboundid.util.ssl.TrustAllTrustManager;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every operation through the UnboundID LDAP SDK, over plain LDAP, LDAPS and StartTLS. */
class UnboundIdClientIT {
  static final String PEOPLE = "ou=People," + TestServer.BASE;
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
    try (LDAPConnection root = server.rootConnection()) {
      root.add(user("alice", "alice-secret"));
    }
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static AddRequest user(String uid, String password) throws Exception {
    return new AddRequest(
        "dn: uid=" + uid + "," + PEOPLE,
        "objectClass: inetOrgPerson",
        "uid: " + uid,
        "cn: " + uid,
        "sn: " + uid,
        "userPassword: " + password);
  }

  static LDAPConnection connect(Transport transport) throws Exception {
    SSLContext trustAll = new SSLUtil(new TrustAllTrustManager()).createSSLContext("TLSv1.3");
    return switch (transport) {
      case PLAIN -> new LDAPConnection("127.0.0.1", server.ldapPort());
      case LDAPS ->
          new LDAPConnection(trustAll.getSocketFactory(), "127.0.0.1", server.ldapsPort());
      case START_TLS -> {
        LDAPConnection connection = new LDAPConnection("127.0.0.1", server.ldapPort());
        ExtendedResult started =
            connection.processExtendedOperation(new StartTLSExtendedRequest(trustAll));
        assertThat(started.getResultCode()).isEqualTo(ResultCode.SUCCESS);
        yield connection;
      }
    };
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void everyOperation(Transport transport) throws Exception {
    String uid = "op-" + transport.name().toLowerCase();
    String dn = "uid=" + uid + "," + PEOPLE;
    try (LDAPConnection connection = connect(transport)) {
      BindResult bind = connection.bind(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
      assertThat(bind.getResultCode()).isEqualTo(ResultCode.SUCCESS);
      WhoAmIExtendedResult whoAmI =
          (WhoAmIExtendedResult) connection.processExtendedOperation(new WhoAmIExtendedRequest());
      assertThat(whoAmI.getAuthorizationID()).isEqualTo("dn:" + TestServer.ROOT_DN);

      assertThat(connection.add(user(uid, "first-password")).getResultCode())
          .isEqualTo(ResultCode.SUCCESS);
      SearchResult search =
          connection.search(PEOPLE, SearchScope.ONE, Filter.createEqualityFilter("uid", uid), "cn");
      assertThat(search.getSearchEntries())
          .singleElement()
          .satisfies(
              e -> {
                assertThat(e.getDN()).isEqualToIgnoringCase(dn);
                assertThat(e.getAttributeValue("cn")).isEqualTo(uid);
              });
      assertThat(
              connection
                  .modify(dn, new Modification(ModificationType.REPLACE, "description", "changed"))
                  .getResultCode())
          .isEqualTo(ResultCode.SUCCESS);
      CompareResult compare = connection.compare(dn, "description", "changed");
      assertThat(compare.compareMatched()).isTrue();
      assertThat(connection.modifyDN(dn, "uid=" + uid + "-renamed", true).getResultCode())
          .isEqualTo(ResultCode.SUCCESS);
      String renamed = "uid=" + uid + "-renamed," + PEOPLE;
      assertThat(connection.getEntry(renamed)).isNotNull();

      PasswordModifyExtendedResult reset =
          (PasswordModifyExtendedResult)
              connection.processExtendedOperation(
                  new PasswordModifyExtendedRequest(renamed, null, "Second-Secret-2"));
      assertThat(reset.getResultCode()).isEqualTo(ResultCode.SUCCESS);
      assertThat(connection.bind(renamed, "Second-Secret-2").getResultCode())
          .isEqualTo(ResultCode.SUCCESS);
      assertThat(connection.bind(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD).getResultCode())
          .isEqualTo(ResultCode.SUCCESS);
      assertThat(connection.delete(renamed).getResultCode()).isEqualTo(ResultCode.SUCCESS);
      assertThat(connection.getEntry(renamed)).isNull();
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void saslPlainWithADnOrAUid(Transport transport) throws Exception {
    try (LDAPConnection connection = connect(transport)) {
      BindResult byDn =
          connection.bind(new PLAINBindRequest("dn:uid=alice," + PEOPLE, "alice-secret"));
      assertThat(byDn.getResultCode()).isEqualTo(ResultCode.SUCCESS);
      BindResult byUid = connection.bind(new PLAINBindRequest("u:alice", "alice-secret"));
      assertThat(byUid.getResultCode()).isEqualTo(ResultCode.SUCCESS);
      WhoAmIExtendedResult whoAmI =
          (WhoAmIExtendedResult) connection.processExtendedOperation(new WhoAmIExtendedRequest());
      assertThat(whoAmI.getAuthorizationID()).isEqualToIgnoringCase("dn:uid=alice," + PEOPLE);
      assertThatThrownBy(() -> connection.bind(new PLAINBindRequest("u:alice", "wrong")))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.INVALID_CREDENTIALS));
      assertThatThrownBy(
              () -> connection.bind(new PLAINBindRequest("u:alice", "bob", "alice-secret")))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.AUTHORIZATION_DENIED));
    }
  }

  @Test
  void saslExternalWithoutAClientCertificateIsInappropriate() throws Exception {
    try (LDAPConnection connection = connect(Transport.LDAPS)) {
      assertThatThrownBy(() -> connection.bind(new com.unboundid.ldap.sdk.EXTERNALBindRequest()))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e ->
                  assertThat(e.getResultCode()).isEqualTo(ResultCode.INAPPROPRIATE_AUTHENTICATION));
    }
  }

  @Test
  void unknownCriticalControlsFailAndNonCriticalOnesAreIgnored() throws Exception {
    try (LDAPConnection connection = server.rootConnection()) {
      SearchRequest critical =
          new SearchRequest(TestServer.BASE, SearchScope.BASE, "(objectClass=*)");
      critical.addControl(new Control("1.2.3.4.5.6.7", true));
      assertThatThrownBy(() -> connection.search(critical))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e ->
                  assertThat(e.getResultCode())
                      .isEqualTo(ResultCode.UNAVAILABLE_CRITICAL_EXTENSION));
      SearchRequest nonCritical =
          new SearchRequest(TestServer.BASE, SearchScope.BASE, "(objectClass=*)");
      nonCritical.addControl(new Control("1.2.3.4.5.6.7", false));
      assertThat(connection.search(nonCritical).getEntryCount()).isEqualTo(1);
      SearchRequest manageDsaIt =
          new SearchRequest(TestServer.BASE, SearchScope.BASE, "(objectClass=*)");
      manageDsaIt.addControl(new Control(SupportedControls.MANAGE_DSA_IT, true));
      assertThat(connection.search(manageDsaIt).getEntryCount()).isEqualTo(1);
    }
  }

  @Test
  void requestLimitsAreRefusedWithAdminLimitExceeded() throws Exception {
    try (LDAPConnection connection = server.rootConnection()) {
      Filter deep = Filter.createPresenceFilter("objectClass");
      for (int i = 0; i < 32; i++) {
        deep = Filter.createNOTFilter(deep);
      }
      Filter tooDeep = deep;
      assertThatThrownBy(() -> connection.search(TestServer.BASE, SearchScope.SUB, tooDeep))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> {
                assertThat(e.getResultCode()).isEqualTo(ResultCode.ADMIN_LIMIT_EXCEEDED);
                assertThat(e.getDiagnosticMessage()).contains("max-filter-depth");
              });
      String[] manyParts = new String[40];
      java.util.Arrays.fill(manyParts, "a");
      Filter substring = Filter.createSubstringFilter("cn", "a", manyParts, "z");
      assertThatThrownBy(() -> connection.search(TestServer.BASE, SearchScope.SUB, substring))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> assertThat(e.getDiagnosticMessage()).contains("max-substring-components"));
      String[] attributes = new String[1001];
      java.util.Arrays.fill(attributes, "cn");
      assertThatThrownBy(
              () ->
                  connection.search(
                      TestServer.BASE, SearchScope.BASE, "(objectClass=*)", attributes))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> assertThat(e.getDiagnosticMessage()).contains("max-requested-attributes"));
      List<com.unboundid.ldap.sdk.Attribute> tooMany = new ArrayList<>();
      tooMany.add(new com.unboundid.ldap.sdk.Attribute("objectClass", "extensibleObject"));
      for (int i = 0; i < 1000; i++) {
        tooMany.add(new com.unboundid.ldap.sdk.Attribute("x-attr-" + i, "v"));
      }
      assertThatThrownBy(() -> connection.add("cn=many," + TestServer.BASE, tooMany))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> {
                assertThat(e.getResultCode()).isEqualTo(ResultCode.ADMIN_LIMIT_EXCEEDED);
                assertThat(e.getDiagnosticMessage()).contains("max-add-attributes");
              });
      // The connection goes on.
      assertThat(connection.getEntry(TestServer.BASE)).isNotNull();
    }
  }

  /**
   * Cancel (RFC 3909) of a search that is still sending: the client reads slowly, so the search
   * blocks on the connection's writability until the cancel gets in.
   */
  @Test
  void cancelStopsARunningSearch() throws Exception {
    try (LDAPConnection root = server.rootConnection()) {
      // 18 MB of results: far more than the server's high water mark and both socket buffers.
      String description = "x".repeat(30_000);
      for (int i = 0; i < 600; i++) {
        root.add(
            "dn: cn=bulk-" + i + "," + PEOPLE,
            "objectClass: person",
            "cn: bulk-" + i,
            "sn: bulk",
            "description: " + description);
      }
    }
    LDAPConnectionOptions options = new LDAPConnectionOptions();
    options.setReceiveBufferSize(16 * 1024);
    try (LDAPConnection connection =
        new LDAPConnection(
            options,
            "127.0.0.1",
            server.ldapPort(),
            TestServer.ROOT_DN,
            TestServer.ROOT_PASSWORD)) {
      AtomicInteger entries = new AtomicInteger();
      AtomicReference<SearchResult> done = new AtomicReference<>();
      AsyncSearchResultListener slowReader =
          new AsyncSearchResultListener() {
            private static final long serialVersionUID = 1L;

            @Override
            public void searchEntryReturned(SearchResultEntry entry) {
              entries.incrementAndGet();
              try {
                Thread.sleep(2);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }

            @Override
            public void searchReferenceReturned(SearchResultReference reference) {}

            @Override
            public void searchResultReceived(AsyncRequestID requestId, SearchResult result) {
              done.set(result);
            }
          };
      AsyncRequestID search =
          connection.asyncSearch(
              new SearchRequest(slowReader, PEOPLE, SearchScope.ONE, "(cn=bulk-*)"));
      while (entries.get() == 0) {
        Thread.sleep(5);
      }
      ExtendedResult cancel =
          connection.processExtendedOperation(new CancelExtendedRequest(search));
      assertThat(cancel.getResultCode()).isEqualTo(ResultCode.SUCCESS);
      LDAPResult searchResult = search.get(30, TimeUnit.SECONDS);
      assertThat(searchResult.getResultCode()).isEqualTo(ResultCode.CANCELED);
      assertThat(entries.get()).isLessThan(600);

      ExtendedResult unknown = connection.processExtendedOperation(new CancelExtendedRequest(9999));
      assertThat(unknown.getResultCode()).isEqualTo(ResultCode.NO_SUCH_OPERATION);
    }
  }

  @Test
  void manyOutstandingRequestsGetResponsesWithTheirMessageIds() throws Exception {
    try (LDAPConnection connection = server.rootConnection()) {
      List<AsyncRequestID> ids = new ArrayList<>();
      List<String> bases = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        String base = i % 2 == 0 ? PEOPLE : "uid=alice," + PEOPLE;
        bases.add(base);
        List<String> seen = new ArrayList<>();
        AsyncSearchResultListener listener =
            new AsyncSearchResultListener() {
              private static final long serialVersionUID = 1L;

              @Override
              public void searchEntryReturned(SearchResultEntry entry) {
                synchronized (seen) {
                  seen.add(entry.getDN());
                }
              }

              @Override
              public void searchReferenceReturned(SearchResultReference reference) {}

              @Override
              public void searchResultReceived(AsyncRequestID requestId, SearchResult result) {}
            };
        ids.add(
            connection.asyncSearch(
                new SearchRequest(listener, base, SearchScope.BASE, "(objectClass=*)")));
      }
      for (AsyncRequestID id : ids) {
        assertThat(id.get(10, TimeUnit.SECONDS).getResultCode()).isEqualTo(ResultCode.SUCCESS);
      }
    }
  }

  @Test
  void anUnauthenticatedSimpleBindIsRefused() throws Exception {
    LDAPConnectionOptions options = new LDAPConnectionOptions();
    options.setBindWithDNRequiresPassword(false); // let the request reach the server
    try (LDAPConnection connection = new LDAPConnection(options, "127.0.0.1", server.ldapPort())) {
      assertThatThrownBy(
              () -> connection.bind(new SimpleBindRequest("uid=alice," + PEOPLE, new byte[0])))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.UNWILLING_TO_PERFORM));
    }
  }
}
