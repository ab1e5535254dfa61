package io.rockds.server.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.unboundid.asn1.ASN1Boolean;
import com.unboundid.asn1.ASN1Element;
import com.unboundid.asn1.ASN1Enumerated;
import com.unboundid.asn1.ASN1Integer;
import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.asn1.ASN1Sequence;
import com.unboundid.asn1.ASN1Set;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.SimpleBindRequest;
import com.unboundid.ldap.sdk.controls.ServerSideSortRequestControl;
import com.unboundid.ldap.sdk.controls.SimplePagedResultsControl;
import io.rockds.server.TestServer;
import io.rockds.server.reliability.RawLdap.Outcome;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hostile-input catalogue ({@code docs/RELIABILITY.md}), one test per row: each input gets a
 * clear result code or a disconnection, and after every test the server still answers and every
 * entry it held is still there, whole.
 */
class HostileInputIT {
  private static final String BASE = TestServer.BASE;
  private static final String PERSON = "uid=bjensen,ou=People," + BASE;
  private static final Set<ResultCode> PROTOCOL_REFUSALS =
      Set.of(ResultCode.PROTOCOL_ERROR, ResultCode.DECODING_ERROR);

  /**
   * What the raw (anonymous) client may get for a well-formed search of the whole suffix: success,
   * or insufficientAccessRights because such a search is unindexed and anonymous clients lack the
   * unindexed-search privilege. Both are clear answers.
   */
  private static final Set<ResultCode> SEARCH_ANSWERS =
      Set.of(ResultCode.SUCCESS, ResultCode.INSUFFICIENT_ACCESS_RIGHTS);

  @TempDir static Path dir;
  private static TestServer server;
  private static List<Entry> before;

  @BeforeAll
  static void start() throws Exception {
    List<Entry> entries = new ArrayList<>(TestServer.baseEntries());
    entries.add(
        new Entry(
            "dn: " + PERSON,
            "objectClass: inetOrgPerson",
            "uid: bjensen",
            "cn: Barbara Jensen",
            "sn: Jensen",
            "userPassword: hifalutin",
            "description: kept"));
    server = TestServer.start(dir, entries);
    before = everything();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /**
   * Nothing lost, nothing half-written, nothing hostile stored, and the server still serves reads
   * and writes. Entries a test left behind are removed first so one failure does not cascade.
   */
  @AfterEach
  void serverIsUpAndNothingIsLost() throws Exception {
    List<Entry> after = everything();
    List<String> known = before.stream().map(Entry::getDN).toList();
    List<String> leftovers =
        after.stream().map(Entry::getDN).filter(dn -> !known.contains(dn)).toList();
    try (LDAPConnection c = server.rootConnection()) {
      for (String dn : leftovers) {
        c.delete(dn);
      }
      assertThat(leftovers).as("entries a hostile request managed to add").isEmpty();
      assertThat(everything()).isEqualTo(before);
      c.add(new Entry("dn: cn=probe," + BASE, "objectClass: device", "cn: probe"));
      c.delete("cn=probe," + BASE);
    }
  }

  private static List<Entry> everything() throws LDAPException {
    try (LDAPConnection c = server.rootConnection()) {
      SearchResult all = c.search(BASE, SearchScope.SUB, "(objectClass=*)", "*", "+");
      List<Entry> entries = new ArrayList<>(all.getSearchEntries());
      entries.sort((a, b) -> a.getDN().compareTo(b.getDN()));
      return entries;
    }
  }

  // ----- raw BER -----

  @Test
  void berLengthBombIsRefusedBeforeBuffering() throws Exception {
    assertDisconnected(
        new byte[] {
          0x30, (byte) 0x84, 0x7F, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x02, 0x01, 0x01
        });
    assertDisconnected(
        new byte[] {
          0x30,
          (byte) 0x88,
          0x7F,
          (byte) 0xFF,
          (byte) 0xFF,
          (byte) 0xFF,
          (byte) 0xFF,
          (byte) 0xFF,
          (byte) 0xFF,
          (byte) 0xFF,
          0x02,
          0x01,
          0x01
        });
  }

  @Test
  void indefiniteLengthIsRefused() throws Exception {
    assertDisconnected(new byte[] {0x30, (byte) 0x80, 0x02, 0x01, 0x01, 0x42, 0x00, 0x00, 0x00});
  }

  @Test
  void deeplyNestedBerIsRefused() throws Exception {
    ASN1Element filter = new ASN1OctetString((byte) 0x87, "objectClass");
    for (int i = 0; i < 2_000; i++) {
      filter = new ASN1Element((byte) 0xA2, filter.encode());
    }
    Outcome outcome =
        rawOutcome(RawLdap.message(1, search(BASE.getBytes(StandardCharsets.UTF_8), 0, 0, filter)));
    assertThat(outcome.disconnected() || PROTOCOL_REFUSALS.contains(outcome.resultCode()))
        .as(outcome.toString())
        .isTrue();
  }

  @Test
  void deeplyNestedFilterFromAClientGetsAClearAnswer() throws Exception {
    Filter filter = Filter.createPresenceFilter("objectClass");
    for (int i = 0; i < 500; i++) {
      filter = Filter.createANDFilter(filter);
    }
    Filter deep = Filter.createNOTFilter(filter);
    try (LDAPConnection c = server.rootConnection()) {
      LDAPException refused =
          catchThrowableOfType(LDAPException.class, () -> c.search(BASE, SearchScope.SUB, deep));
      assertThat(refused).as("a 500-deep filter is refused").isNotNull();
      assertThat(refused.getResultCode())
          .isIn(
              ResultCode.PROTOCOL_ERROR,
              ResultCode.SERVER_DOWN,
              ResultCode.UNWILLING_TO_PERFORM,
              ResultCode.ADMIN_LIMIT_EXCEEDED);
    }
  }

  @Test
  void bytesThatAreNotLdapAtAllAreDisconnected() throws Exception {
    assertDisconnected(
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
  }

  // ----- sizes -----

  @Test
  void hugeAttributeValueWithinTheRequestLimitIsStoredWhole() throws Exception {
    byte[] photo = new byte[4 << 20];
    new Random(7).nextBytes(photo);
    try (LDAPConnection c = server.rootConnection()) {
      c.add(
          new Entry(
              "cn=big," + BASE,
              new Attribute("objectClass", "top", "device", "extensibleObject"),
              new Attribute("cn", "big"),
              new Attribute("jpegPhoto", photo)));
      assertThat(c.getEntry("cn=big," + BASE, "jpegPhoto").getAttributeValueBytes("jpegPhoto"))
          .isEqualTo(photo);
      c.delete("cn=big," + BASE);
    }
  }

  @Test
  void requestOverTheSizeLimitIsDisconnected() throws Exception {
    byte[] value = new byte[9 << 20];
    ASN1Element add =
        add(
            "cn=toobig," + BASE,
            attribute("objectClass", "device"),
            attribute("cn", "toobig"),
            new ASN1Sequence(
                new ASN1OctetString("description"), new ASN1Set(new ASN1OctetString(value))));
    try (RawLdap raw = new RawLdap(server.ldapPort())) {
      bindAsRoot(raw);
      try {
        raw.send(RawLdap.message(2, add));
      } catch (IOException closedWhileSending) {
        return;
      }
      assertThat(raw.outcome().disconnected()).isTrue();
    }
  }

  @Test
  void hugeAttributeValueCountIsStoredWholeOrRefusedClearly() throws Exception {
    String[] values = new String[20_000];
    for (int i = 0; i < values.length; i++) {
      values[i] = "value " + i;
    }
    try (LDAPConnection c = server.rootConnection()) {
      try {
        c.add(
            new Entry(
                "cn=many," + BASE,
                new Attribute("objectClass", "top", "device", "extensibleObject"),
                new Attribute("cn", "many"),
                new Attribute("description", values)));
      } catch (LDAPException e) {
        assertThat(e.getResultCode())
            .isIn(
                ResultCode.ADMIN_LIMIT_EXCEEDED,
                ResultCode.UNWILLING_TO_PERFORM,
                ResultCode.CONSTRAINT_VIOLATION);
        return;
      }
      assertThat(c.getEntry("cn=many," + BASE, "description").getAttributeValues("description"))
          .hasSize(20_000);
      assertThat(c.search(BASE, SearchScope.SUB, "(description=value 19999)").getEntryCount())
          .isEqualTo(1);
      c.delete("cn=many," + BASE);
    }
  }

  // ----- encodings and syntax -----

  @Test
  void invalidUtf8InADnIsRefused() throws Exception {
    byte[] dn = bytes("cn=", new byte[] {(byte) 0xFF, (byte) 0xFE, (byte) 0xC3, 0x28}, "," + BASE);
    try (RawLdap raw = new RawLdap(server.ldapPort())) {
      bindAsRoot(raw);
      raw.send(
          RawLdap.message(2, add(dn, attribute("objectClass", "device"), attribute("cn", "x"))));
      assertRefused(raw.outcome(), ResultCode.INVALID_DN_SYNTAX, ResultCode.PROTOCOL_ERROR);
      raw.send(
          RawLdap.message(3, search(dn, 0, 0, new ASN1OctetString((byte) 0x87, "objectClass"))));
      assertRefused(
          raw.outcome(),
          ResultCode.INVALID_DN_SYNTAX,
          ResultCode.PROTOCOL_ERROR,
          ResultCode.NO_SUCH_OBJECT);
    }
  }

  @Test
  void invalidUtf8InAValueIsRefusedOrKeptByteForByte() throws Exception {
    byte[] value = {'x', (byte) 0xFF, (byte) 0xC3, 0x28};
    try (RawLdap raw = new RawLdap(server.ldapPort())) {
      bindAsRoot(raw);
      raw.send(
          RawLdap.message(
              2,
              add(
                  "cn=utf8," + BASE,
                  attribute("objectClass", "device"),
                  attribute("cn", "utf8"),
                  new ASN1Sequence(
                      new ASN1OctetString("description"),
                      new ASN1Set(new ASN1OctetString(value))))));
      Outcome outcome = raw.outcome();
      if (outcome.resultCode() == ResultCode.SUCCESS) {
        try (LDAPConnection c = server.rootConnection()) {
          assertThat(c.getEntry("cn=utf8," + BASE).getAttributeValueBytes("description"))
              .isEqualTo(value);
          c.delete("cn=utf8," + BASE);
        }
      } else {
        assertRefused(outcome, ResultCode.INVALID_ATTRIBUTE_SYNTAX, ResultCode.PROTOCOL_ERROR);
      }
    }
  }

  @Test
  void malformedDnsAreRefusedWithInvalidDnSyntax() throws Exception {
    try (LDAPConnection c = server.rootConnection()) {
      for (String dn : List.of(",,,=", "cn=\\4," + BASE, "=x," + BASE, "cn=\"open," + BASE, "cn")) {
        LDAPException refused =
            catchThrowableOfType(
                LDAPException.class, () -> c.search(dn, SearchScope.BASE, "(objectClass=*)"));
        assertThat(refused).as(dn).isNotNull();
        assertThat(refused.getResultCode())
            .as(dn)
            .isIn(ResultCode.INVALID_DN_SYNTAX, ResultCode.NO_SUCH_OBJECT);
        LDAPException addRefused =
            catchThrowableOfType(
                LDAPException.class,
                () -> c.add(new Entry(dn, new Attribute("objectClass", "device"))));
        assertThat(addRefused).as(dn).isNotNull();
        assertThat(addRefused.getResultCode())
            .as(dn)
            .isNotEqualTo(ResultCode.SUCCESS)
            .isNotEqualTo(ResultCode.OTHER)
            .isNotEqualTo(ResultCode.SERVER_DOWN);
      }
    }
  }

  @Test
  void malformedFiltersAreRefused() throws Exception {
    List<ASN1Element> filters =
        List.of(
            new ASN1OctetString((byte) 0xAF, "unknown filter choice"),
            new ASN1Sequence((byte) 0xA9),
            new ASN1Sequence((byte) 0xA3, new ASN1OctetString("cn")),
            new ASN1Integer(5));
    for (ASN1Element filter : filters) {
      Outcome outcome =
          rawOutcome(
              RawLdap.message(1, search(BASE.getBytes(StandardCharsets.UTF_8), 0, 0, filter)));
      assertThat(
              outcome.disconnected()
                  || PROTOCOL_REFUSALS.contains(outcome.resultCode())
                  || outcome.resultCode() == ResultCode.INSUFFICIENT_ACCESS_RIGHTS)
          .as(filter + " -> " + outcome)
          .isTrue();
    }
    // RFC 4511 says SIZE (1..MAX) but the decoder accepts no substrings at all: a defined answer
    // will do.
    ASN1Element noSubstrings =
        new ASN1Sequence((byte) 0xA4, new ASN1OctetString("cn"), new ASN1Sequence());
    Outcome outcome =
        rawOutcome(
            RawLdap.message(1, search(BASE.getBytes(StandardCharsets.UTF_8), 0, 0, noSubstrings)));
    assertThat(
            outcome.disconnected()
                || SEARCH_ANSWERS.contains(outcome.resultCode())
                || PROTOCOL_REFUSALS.contains(outcome.resultCode()))
        .as(outcome.toString())
        .isTrue();
  }

  @Test
  void negativeAndHugeSizeAndTimeLimitsGetAClearAnswer() throws Exception {
    ASN1Element all = new ASN1OctetString((byte) 0x87, "objectClass");
    byte[] base = BASE.getBytes(StandardCharsets.UTF_8);
    for (int[] limits : new int[][] {{-1, 0}, {0, -5}, {Integer.MIN_VALUE, Integer.MIN_VALUE}}) {
      Outcome outcome = rawOutcome(RawLdap.message(1, search(base, limits[0], limits[1], all)));
      assertThat(
              outcome.disconnected()
                  || SEARCH_ANSWERS.contains(outcome.resultCode())
                  || PROTOCOL_REFUSALS.contains(outcome.resultCode()))
          .as(Arrays.toString(limits) + " -> " + outcome)
          .isTrue();
    }
    Outcome huge =
        rawOutcome(RawLdap.message(1, search(base, Integer.MAX_VALUE, Integer.MAX_VALUE, all)));
    assertThat(huge.resultCode()).as(huge.toString()).isIn(SEARCH_ANSWERS);
  }

  /**
   * Regression: results built from an LDAPException lost its message (only a diagnostic message was
   * sent).
   */
  @Test
  void refusalsCarryTheServersMessage() throws Exception {
    try (LDAPConnection c = server.rootConnection()) {
      LDAPException refused =
          catchThrowableOfType(
              LDAPException.class,
              () -> c.add(new Entry("cn=x,o=nowhere", new Attribute("objectClass", "device"))));
      assertThat(refused.getResultCode()).isNotEqualTo(ResultCode.SUCCESS);
      assertThat(refused.getDiagnosticMessage()).isNotBlank();
    }
  }

  // ----- controls and binds -----

  @Test
  void tamperedPagedResultsCookieGetsAClearRefusal() throws Exception {
    try (LDAPConnection c = server.rootConnection()) {
      for (byte[] cookie :
          List.of("tampered".getBytes(StandardCharsets.UTF_8), new byte[300], new byte[] {-1})) {
        SearchRequest request = new SearchRequest(BASE, SearchScope.SUB, "(objectClass=*)");
        request.addControl(new SimplePagedResultsControl(2, new ASN1OctetString(cookie), true));
        LDAPException refused = catchThrowableOfType(LDAPException.class, () -> c.search(request));
        assertThat(refused).as("a cookie the server never issued is refused").isNotNull();
        assertThat(refused.getResultCode())
            .isIn(
                ResultCode.UNWILLING_TO_PERFORM,
                ResultCode.PROTOCOL_ERROR,
                ResultCode.UNAVAILABLE_CRITICAL_EXTENSION,
                ResultCode.OPERATIONS_ERROR);
      }
    }
  }

  @Test
  void dnWithAnEmptyPasswordIsNotAnAuthenticatedBind() throws Exception {
    LDAPConnectionOptions options = new LDAPConnectionOptions();
    options.setBindWithDNRequiresPassword(false);
    try (LDAPConnection c = new LDAPConnection(options, "127.0.0.1", server.ldapPort())) {
      LDAPException refused =
          catchThrowableOfType(
              LDAPException.class, () -> c.bind(new SimpleBindRequest(TestServer.ROOT_DN, "")));
      assertThat(refused).as("root DN with an empty password").isNotNull();
      assertThat(refused.getResultCode())
          .isIn(ResultCode.UNWILLING_TO_PERFORM, ResultCode.INVALID_CREDENTIALS);
      LDAPException write = catchThrowableOfType(LDAPException.class, () -> c.delete(PERSON));
      assertThat(write.getResultCode()).isEqualTo(ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }
  }

  @Test
  void controlsWithGarbageValuesGetAClearAnswer() throws Exception {
    ASN1OctetString garbage =
        new ASN1OctetString(new byte[] {0x30, (byte) 0x84, 0x7F, (byte) 0xFF, 0x01});
    try (LDAPConnection c = server.rootConnection()) {
      SearchRequest sorted = new SearchRequest(BASE, SearchScope.SUB, "(objectClass=*)");
      sorted.addControl(
          new Control(ServerSideSortRequestControl.SERVER_SIDE_SORT_REQUEST_OID, true, garbage));
      LDAPException refused = catchThrowableOfType(LDAPException.class, () -> c.search(sorted));
      assertThat(refused).isNotNull();
      assertThat(refused.getResultCode())
          .isIn(ResultCode.UNAVAILABLE_CRITICAL_EXTENSION, ResultCode.PROTOCOL_ERROR);
      SearchRequest ignored = new SearchRequest(BASE, SearchScope.BASE, "(objectClass=*)");
      ignored.addControl(new Control("1.3.6.1.4.1.99999.1", false, garbage));
      assertThat(c.search(ignored).getResultCode())
          .as("a non-critical unknown control is ignored")
          .isEqualTo(ResultCode.SUCCESS);
    }
    ASN1Element garbageOid =
        new ASN1Sequence(
            new ASN1OctetString(new byte[] {(byte) 0xFF, 0x00, '.'}), new ASN1Boolean(true));
    Outcome outcome =
        rawOutcome(
            RawLdap.message(
                1,
                search(
                    BASE.getBytes(StandardCharsets.UTF_8),
                    0,
                    0,
                    new ASN1OctetString((byte) 0x87, "objectClass")),
                garbageOid));
    assertThat(
            outcome.disconnected()
                || outcome.resultCode() == ResultCode.UNAVAILABLE_CRITICAL_EXTENSION
                || PROTOCOL_REFUSALS.contains(outcome.resultCode()))
        .as(outcome.toString())
        .isTrue();
  }

  // ----- helpers -----

  private static void assertDisconnected(byte[] request) throws Exception {
    Outcome outcome = rawOutcome(request);
    assertThat(outcome.disconnected()).as(outcome.toString()).isTrue();
  }

  private static void assertRefused(Outcome outcome, ResultCode... allowed) {
    assertThat(outcome.disconnected()).as(outcome.toString()).isFalse();
    assertThat(outcome.resultCode()).as(outcome.toString()).isIn((Object[]) allowed);
  }

  private static Outcome rawOutcome(byte[] request) throws Exception {
    try (RawLdap raw = new RawLdap(server.ldapPort())) {
      raw.send(request);
      return raw.outcome();
    }
  }

  private static void bindAsRoot(RawLdap raw) throws Exception {
    raw.send(
        RawLdap.message(
            1,
            new ASN1Sequence(
                (byte) 0x60,
                new ASN1Integer(3),
                new ASN1OctetString(TestServer.ROOT_DN),
                new ASN1OctetString((byte) 0x80, TestServer.ROOT_PASSWORD))));
    assertThat(raw.outcome().resultCode()).isEqualTo(ResultCode.SUCCESS);
  }

  private static ASN1Element search(byte[] base, int sizeLimit, int timeLimit, ASN1Element filter) {
    return new ASN1Sequence(
        (byte) 0x63,
        new ASN1OctetString(base),
        new ASN1Enumerated(2),
        new ASN1Enumerated(0),
        new ASN1Integer(sizeLimit),
        new ASN1Integer(timeLimit),
        new ASN1Boolean(false),
        filter,
        new ASN1Sequence());
  }

  private static ASN1Element add(String dn, ASN1Element... attributes) {
    return add(dn.getBytes(StandardCharsets.UTF_8), attributes);
  }

  private static ASN1Element add(byte[] dn, ASN1Element... attributes) {
    return new ASN1Sequence((byte) 0x68, new ASN1OctetString(dn), new ASN1Sequence(attributes));
  }

  private static ASN1Element attribute(String name, String value) {
    return new ASN1Sequence(new ASN1OctetString(name), new ASN1Set(new ASN1OctetString(value)));
  }

  private static byte[] bytes(String head, byte[] middle, String tail) {
    byte[] h = head.getBytes(StandardCharsets.UTF_8);
    byte[] t = tail.getBytes(StandardCharsets.UTF_8);
    byte[] all = Arrays.copyOf(h, h.length + middle.length + t.length);
    System.arraycopy(middle, 0, all, h.length, middle.length);
    System.arraycopy(t, 0, all, h.length + middle.length, t.length);
    return all;
  }
}
