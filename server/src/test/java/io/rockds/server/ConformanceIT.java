package io.rockds.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.CompareRequest;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.DeleteRequest;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyDNRequest;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.AssertionRequestControl;
import com.unboundid.ldap.sdk.controls.PermissiveModifyRequestControl;
import com.unboundid.ldap.sdk.controls.PostReadRequestControl;
import com.unboundid.ldap.sdk.controls.PostReadResponseControl;
import com.unboundid.ldap.sdk.controls.PreReadRequestControl;
import com.unboundid.ldap.sdk.controls.PreReadResponseControl;
import com.unboundid.ldap.sdk.controls.SubtreeDeleteRequestControl;
import com.unboundid.ldap.sdk.schema.AttributeTypeDefinition;
import com.unboundid.ldap.sdk.schema.ObjectClassDefinition;
import com.unboundid.ldap.sdk.schema.Schema;
import com.unboundid.ldif.LDIFChangeRecord;
import com.unboundid.ldif.LDIFReader;
import java.io.BufferedReader;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same operations against RockDS and a real OpenLDAP slapd, comparing result codes, matched
 * DNs, that a diagnostic message comes wherever slapd gives one, and the entries left behind. Each
 * test works in its own {@code ou}. Where RockDS answers differently on purpose, the script line
 * says {@code rockds=<code>} and why.
 */
class ConformanceIT {
  private static final String BASE = TestServer.BASE;
  private static final Schema SCHEMA = io.rockds.server.schema.SchemaLoader.standard();

  @TempDir static Path dir;
  private static TestServer rockds;
  private static Slapd slapd;
  private static LDAPConnection ours;
  private static LDAPConnection theirs;

  @BeforeAll
  static void start() throws Exception {
    slapd = Slapd.start(dir.resolve("slapd"), TestServer.ROOT_PASSWORD);
    rockds = TestServer.start(dir.resolve("rockds"), TestServer.baseEntries());
    ours = rockds.rootConnection();
    theirs = slapd.rootConnection();
    for (Entry e : TestServer.baseEntries()) {
      theirs.add(e);
    }
  }

  @AfterAll
  static void stop() throws InterruptedException {
    for (AutoCloseable c : new AutoCloseable[] {ours, theirs}) {
      if (c != null) {
        ((LDAPConnection) c).close();
      }
    }
    if (rockds != null) {
      rockds.close();
    }
    if (slapd != null) {
      slapd.close();
    }
  }

  @Test
  void schemaChecking_onAdd() throws Exception {
    runScript(
        "ou=Add",
        """
        # parent
        dn: ou=Add,%1$s
        changetype: add
        objectClass: organizationalUnit
        ou: Add

        # missing MUST
        dn: cn=a,ou=Add,%1$s
        changetype: add
        objectClass: person
        cn: a

        # an attribute no class allows
        dn: cn=b,ou=Add,%1$s
        changetype: add
        objectClass: person
        cn: b
        sn: b
        mail: b@example.com

        # undefined attribute type
        dn: cn=c,ou=Add,%1$s
        changetype: add
        objectClass: person
        cn: c
        sn: c
        fooBar: x

        # undefined object class
        dn: cn=d,ou=Add,%1$s
        changetype: add
        objectClass: person
        objectClass: fooClass
        cn: d
        sn: d

        # no structural class
        dn: cn=e,ou=Add,%1$s
        changetype: add
        objectClass: top
        cn: e

        # two unrelated structural classes
        dn: cn=f,ou=Add,%1$s
        changetype: add
        objectClass: person
        objectClass: organizationalUnit
        cn: f
        sn: f
        ou: f

        # a structural chain is fine
        dn: cn=f2,ou=Add,%1$s
        changetype: add
        objectClass: organizationalPerson
        objectClass: person
        cn: f2
        sn: f2

        # two values of a single-valued attribute
        dn: cn=h,ou=Add,%1$s
        changetype: add
        objectClass: inetOrgPerson
        cn: h
        sn: h
        displayName: one
        displayName: two

        # invalid syntax
        dn: cn=g,ou=Add,%1$s
        changetype: add
        objectClass: posixAccount
        objectClass: account
        uid: g
        cn: g
        uidNumber: not-a-number
        gidNumber: 1
        homeDirectory: /home/g

        # the RDN value is added to the entry
        dn: cn=i,ou=Add,%1$s
        changetype: add
        objectClass: person
        cn: other
        sn: i

        # parent missing: noSuchObject with the matched DN
        dn: cn=j,ou=Nowhere,ou=Add,%1$s
        changetype: add
        objectClass: person
        cn: j
        sn: j

        # a valid inetOrgPerson
        dn: cn=k,ou=Add,%1$s
        changetype: add
        objectClass: inetOrgPerson
        cn: k
        sn: k
        mail: k@example.com

        # already exists
        dn: cn=k,ou=Add,%1$s
        changetype: add
        objectClass: person
        cn: k
        sn: k

        # a NO-USER-MODIFICATION attribute
        dn: cn=l,ou=Add,%1$s
        changetype: add
        objectClass: person
        cn: l
        sn: l
        entryUUID: 597ae2f6-16a6-1027-98f4-d28b5365dc14

        # RFC 2307 posixGroup and dyngroup groupOfURLs are known
        dn: cn=m,ou=Add,%1$s
        changetype: add
        objectClass: posixGroup
        cn: m
        gidNumber: 100
        memberUid: k

        dn: cn=n,ou=Add,%1$s
        changetype: add
        objectClass: groupOfURLs
        cn: n
        memberURL: ldap:///ou=Add,%1$s??sub?(objectClass=person)
        """);
  }

  @Test
  void schemaChecking_onModify() throws Exception {
    runScript(
        "ou=Modify",
        """
        # parent
        dn: ou=Modify,%1$s
        changetype: add
        objectClass: organizationalUnit
        ou: Modify

        dn: cn=k,ou=Modify,%1$s
        changetype: add
        objectClass: inetOrgPerson
        cn: k
        sn: k
        mail: k@example.com
        description: 1

        # add an existing value
        dn: cn=k,ou=Modify,%1$s
        changetype: modify
        add: mail
        mail: k@example.com

        # delete a missing value
        dn: cn=k,ou=Modify,%1$s
        changetype: modify
        delete: mail
        mail: nobody@example.com

        # delete a missing attribute
        dn: cn=k,ou=Modify,%1$s
        changetype: modify
        delete: title

        # delete the RDN value | rockds=67 notAllowedOnRDN, as OpenDJ and 389 DS answer; OpenLDAP says 64
        dn: cn=k,ou=Modify,%1$s
        changetype: modify
        delete: cn
        cn: k

        # replace the RDN value | rockds=67 notAllowedOnRDN, as OpenDJ and 389 DS answer; OpenLDAP says 64
        dn: cn=k,ou=Modify,%1$s
        changetype: modify
        replace: cn
        cn: kk

        # remove a MUST attribute
        dn: cn=k,ou=Modify,%1$s
        changetype: modify
        delete: sn

        # two values of a single-valued attribute
        dn: cn=k,ou=Modify,%1$s
        changetype: modify
        add: displayName
        displayName: a
        displayName: b

        # all or nothing: the first change must not stay
        dn: cn=k,ou=Modify,%1$s
        changetype: modify
        replace: description
        description: 2
        -
        add: fooBar
        fooBar: 5

        # NO-USER-MODIFICATION attributes
        dn: cn=k,ou=Modify,%1$s
        changetype: modify
        replace: entryUUID
        entryUUID: 597ae2f6-16a6-1027-98f4-d28b5365dc14

        dn: cn=k,ou=Modify,%1$s
        changetype: modify
        replace: modifyTimestamp
        modifyTimestamp: 20200101000000Z

        # structural class change
        dn: cn=k,ou=Modify,%1$s
        changetype: modify
        replace: objectClass
        objectClass: person

        # an attribute no class allows
        dn: cn=k,ou=Modify,%1$s
        changetype: modify
        add: uidNumber
        uidNumber: 5

        # auxiliary class makes it allowed
        dn: cn=k,ou=Modify,%1$s
        changetype: modify
        add: objectClass
        objectClass: posixAccount
        -
        add: uid
        uid: k
        -
        add: uidNumber
        uidNumber: 5
        -
        add: gidNumber
        gidNumber: 5
        -
        add: homeDirectory
        homeDirectory: /home/k

        # increment (RFC 4525)
        dn: cn=k,ou=Modify,%1$s
        changetype: modify
        increment: uidNumber
        uidNumber: 10

        # increment of a non-integer
        dn: cn=k,ou=Modify,%1$s
        changetype: modify
        increment: description
        description: 5

        # no such entry: matched DN
        dn: cn=zz,ou=Modify,%1$s
        changetype: modify
        add: description
        description: 5

        # replace with no values removes the attribute
        dn: cn=k,ou=Modify,%1$s
        changetype: modify
        replace: mail
        """);
  }

  @Test
  void deleteAndRename() throws Exception {
    runScript(
        "ou=Rename",
        """
        dn: ou=Rename,%1$s
        changetype: add
        objectClass: organizationalUnit
        ou: Rename

        dn: ou=Target,ou=Rename,%1$s
        changetype: add
        objectClass: organizationalUnit
        ou: Target

        dn: cn=k,ou=Rename,%1$s
        changetype: add
        objectClass: inetOrgPerson
        cn: k
        sn: k

        dn: cn=child,cn=k,ou=Rename,%1$s
        changetype: add
        objectClass: person
        cn: child
        sn: c

        # non-leaf delete
        dn: cn=k,ou=Rename,%1$s
        changetype: delete

        # no such entry: matched DN
        dn: cn=zz,ou=Nowhere,ou=Rename,%1$s
        changetype: delete

        # keep the old RDN value
        dn: cn=k,ou=Rename,%1$s
        changetype: modrdn
        newrdn: uid=k
        deleteoldrdn: 0

        # an RDN attribute no class allows
        dn: uid=k,ou=Rename,%1$s
        changetype: modrdn
        newrdn: uidNumber=5
        deleteoldrdn: 1

        # replace the RDN, removing the old value
        dn: uid=k,ou=Rename,%1$s
        changetype: modrdn
        newrdn: sn=k
        deleteoldrdn: 1

        # to an existing DN
        dn: sn=k,ou=Rename,%1$s
        changetype: modrdn
        newrdn: ou=Target
        deleteoldrdn: 0

        # a missing new superior
        dn: sn=k,ou=Rename,%1$s
        changetype: modrdn
        newrdn: cn=k
        deleteoldrdn: 1
        newsuperior: ou=Nowhere,ou=Rename,%1$s

        # move with its subtree
        dn: sn=k,ou=Rename,%1$s
        changetype: modrdn
        newrdn: cn=k
        deleteoldrdn: 1
        newsuperior: ou=Target,ou=Rename,%1$s

        # missing entry
        dn: cn=zz,ou=Rename,%1$s
        changetype: modrdn
        newrdn: cn=k2
        deleteoldrdn: 1

        dn: cn=child,cn=k,ou=Target,ou=Rename,%1$s
        changetype: delete
        """);
  }

  @Test
  void compare() throws Exception {
    setUp("ou=Compare", "objectClass: inetOrgPerson", "cn: k", "sn: Smith", "mail: k@example.com");
    String dn = "cn=k,ou=Compare," + BASE;
    for (CompareRequest request :
        List.of(
            new CompareRequest(dn, "sn", "smith"),
            new CompareRequest(dn, "sn", "jones"),
            new CompareRequest(dn, "title", "x"),
            new CompareRequest(dn, "fooBar", "x"),
            new CompareRequest("cn=zz,ou=Compare," + BASE, "sn", "x"))) {
      assertSame(
          request.toString(),
          outcome(() -> ours.compare(request)),
          outcome(() -> theirs.compare(request)),
          null);
    }
    // Virtual attributes compare like stored ones, as in OpenDJ; OpenLDAP refuses entryDN with 53.
    assertThat(ours.compare(dn, "entryDN", dn).compareMatched()).isTrue();
  }

  @Test
  void controls_assertionPermissiveModifyPreAndPostRead() throws Exception {
    setUp("ou=Controls", "objectClass: inetOrgPerson", "cn: k", "sn: Smith", "mail: k@example.com");
    String dn = "cn=k,ou=Controls," + BASE;
    Modification title = new Modification(ModificationType.REPLACE, "title", "Boss");
    for (Control control :
        List.of(
            new AssertionRequestControl("(sn=Jones)"), new AssertionRequestControl("(sn=Smith)"))) {
      ModifyRequest request = new ModifyRequest(dn, List.of(title), new Control[] {control});
      assertSame(
          control.toString(),
          outcome(() -> ours.modify(request)),
          outcome(() -> theirs.modify(request)),
          null);
    }
    ModifyRequest existing =
        new ModifyRequest(
            dn,
            List.of(new Modification(ModificationType.ADD, "mail", "k@example.com")),
            new Control[] {new PermissiveModifyRequestControl()});
    assertSame(
        "permissive modify",
        outcome(() -> ours.modify(existing)),
        outcome(() -> theirs.modify(existing)),
        null);

    ModifyRequest read =
        new ModifyRequest(
            dn,
            List.of(new Modification(ModificationType.REPLACE, "title", "Chief")),
            new Control[] {
              new PreReadRequestControl("title", "sn"), new PostReadRequestControl("title")
            });
    LDAPResult ourResult = ours.modify(read);
    LDAPResult theirResult = theirs.modify(read);
    assertThat(attributes(PreReadResponseControl.get(ourResult).getEntry()))
        .isEqualTo(attributes(PreReadResponseControl.get(theirResult).getEntry()))
        .containsEntry("title", Set.of("Boss"));
    assertThat(attributes(PostReadResponseControl.get(ourResult).getEntry()))
        .isEqualTo(attributes(PostReadResponseControl.get(theirResult).getEntry()))
        .containsEntry("title", Set.of("Chief"));

    ModifyDNRequest rename =
        new ModifyDNRequest(
            dn,
            "cn=k2",
            true,
            new Control[] {new PreReadRequestControl("cn"), new PostReadRequestControl("cn")});
    ourResult = ours.modifyDN(rename);
    theirResult = theirs.modifyDN(rename);
    assertThat(attributes(PreReadResponseControl.get(ourResult).getEntry()))
        .isEqualTo(attributes(PreReadResponseControl.get(theirResult).getEntry()));
    assertThat(attributes(PostReadResponseControl.get(ourResult).getEntry()))
        .isEqualTo(attributes(PostReadResponseControl.get(theirResult).getEntry()))
        .containsEntry("cn", Set.of("k2"));
    assertSameEntries("ou=Controls," + BASE);
  }

  @Test
  void subtreeDelete() throws Exception {
    setUp("ou=Tree", "objectClass: organizationalUnit", "ou: k");
    for (LDAPConnection c : List.of(ours, theirs)) {
      c.add(
          new Entry(
              "dn: cn=leaf,ou=k,ou=Tree," + BASE, "objectClass: person", "cn: leaf", "sn: l"));
    }
    DeleteRequest request = new DeleteRequest("ou=k,ou=Tree," + BASE);
    request.addControl(new SubtreeDeleteRequestControl());
    Outcome mine = outcome(() -> ours.delete(request));
    Outcome slapds = outcome(() -> theirs.delete(request));
    // OpenLDAP does not implement the subtree delete control (OpenDJ and AD do): slapd ignores
    // the non-critical control and answers 66; we delete the whole subtree.
    assertThat(slapds.code()).isEqualTo(ResultCode.NOT_ALLOWED_ON_NONLEAF);
    assertThat(mine.code()).isEqualTo(ResultCode.SUCCESS);
    assertThat(ours.getEntry("cn=leaf,ou=k,ou=Tree," + BASE)).isNull();
    assertThat(ours.getEntry("ou=k,ou=Tree," + BASE)).isNull();
  }

  @Test
  void operationalAttributes_onlyWhenAskedFor() throws Exception {
    setUp("ou=Operational", "objectClass: inetOrgPerson", "cn: k", "sn: k");
    String dn = "cn=k,ou=Operational," + BASE;
    assertThat(ours.getEntry(dn).getAttributes())
        .extracting(Attribute::getBaseName)
        .containsExactlyInAnyOrderElementsOf(names(theirs.getEntry(dn)));
    Set<String> common =
        Set.of(
            "entryuuid",
            "entrydn",
            "createtimestamp",
            "modifytimestamp",
            "creatorsname",
            "modifiersname",
            "structuralobjectclass",
            "subschemasubentry",
            "hassubordinates");
    assertThat(lower(names(ours.getEntry(dn, "+")))).containsAll(common);
    assertThat(lower(names(theirs.getEntry(dn, "+")))).containsAll(common);
    for (String attribute : common) {
      assertThat(lower(names(ours.getEntry(dn, attribute))))
          .as(attribute)
          .containsExactly(attribute);
    }
    Entry mine = ours.getEntry(dn, "+");
    assertThat(mine.getAttributeValue("structuralObjectClass")).isEqualTo("inetOrgPerson");
    assertThat(mine.getAttributeValue("creatorsName")).isEqualTo(TestServer.ROOT_DN);
    // numSubordinates (an OpenDJ/389 attribute) is ours alone; OpenLDAP's mdb has hasSubordinates
    // only.
    assertThat(
            ours.getEntry("ou=Operational," + BASE, "numSubordinates")
                .getAttributeValue("numSubordinates"))
        .isEqualTo("1");
  }

  @Test
  void subschemaEntry_readableAnonymously_andHasWhatSlapdDefines() throws Exception {
    try (LDAPConnection anonymous = rockds.anonymousConnection()) {
      Entry rootDse = anonymous.getEntry("", "+", "*");
      assertThat(rootDse.getAttributeValue("subschemaSubentry")).isEqualTo("cn=schema");
      for (String a :
          List.of(
              "namingContexts",
              "supportedLDAPVersion",
              "supportedControl",
              "supportedExtension",
              "supportedFeatures",
              "vendorName",
              "vendorVersion")) {
        assertThat(rootDse.hasAttribute(a)).as(a).isTrue();
      }
      assertThat(rootDse.getAttributeValues("supportedControl"))
          .contains(
              "1.3.6.1.1.12",
              "1.3.6.1.1.13.1",
              "1.3.6.1.1.13.2",
              "1.2.840.113556.1.4.805",
              "1.2.840.113556.1.4.1413");
      Schema mine = Schema.getSchema(anonymous);
      assertThat(mine).isNotNull();
      Entry entry = anonymous.getEntry("cn=schema", "*", "+");
      assertThat(entry.getAttributeValues("objectClass")).contains("subschema");
      for (String a :
          List.of(
              "attributeTypes",
              "objectClasses",
              "ldapSyntaxes",
              "matchingRules",
              "matchingRuleUse",
              "createTimestamp",
              "modifyTimestamp")) {
        assertThat(entry.hasAttribute(a)).as(a).isTrue();
      }
      try (LDAPConnection slapdAnonymous = slapd.anonymousConnection()) {
        Entry theirRootDse = slapdAnonymous.getEntry("", "+", "*");
        assertThat(rootDse.getAttributeValues("supportedLDAPVersion"))
            .containsExactly(theirRootDse.getAttributeValues("supportedLDAPVersion"));
        // slapd's extra naming context is the database holding its root DN (see Slapd).
        assertThat(rootDse.getAttributeValues("namingContexts"))
            .containsExactly(
                List.of(theirRootDse.getAttributeValues("namingContexts")).stream()
                    .filter(dn -> !dn.equals(TestServer.ROOT_DN))
                    .toArray(String[]::new));
        // OpenLDAP names its subschema entry cn=Subschema; we use OpenDJ's cn=schema: clients read
        // the name
        // from subschemaSubentry, as RFC 4512 section 4.4 tells them to.
        assertThat(theirRootDse.getAttributeValue("subschemaSubentry")).isEqualTo("cn=Subschema");
        Schema theirSchema = Schema.getSchema(slapdAnonymous);
        List<String> missing = new ArrayList<>();
        for (ObjectClassDefinition oc : theirSchema.getObjectClasses()) {
          if (!openLdapInternal(oc.getOID()) && mine.getObjectClass(oc.getOID()) == null) {
            missing.add(oc.getNameOrOID());
          }
        }
        for (AttributeTypeDefinition at : theirSchema.getAttributeTypes()) {
          if (!openLdapInternal(at.getOID()) && mine.getAttributeType(at.getOID()) == null) {
            missing.add(at.getNameOrOID());
          }
        }
        assertThat(missing).as("definitions slapd has and RockDS lacks").isEmpty();
      }
    }
  }

  /** OpenLDAP's own arc, and its cn=config and back-end attributes, have no place in our schema. */
  private static boolean openLdapInternal(String oid) {
    return oid.startsWith("1.3.6.1.4.1.4203.")
        || oid.startsWith("1.3.6.1.4.1.4754.")
        || oid.startsWith("1.3.6.1.1.4.")
        || oid.startsWith("2.16.840.1.113730.3.1.1003");
  }

  @Test
  void groups_memberOfAndReferentialIntegrity() throws Exception {
    for (LDAPConnection c : List.of(ours, theirs)) {
      c.add(new Entry("dn: ou=Groups2," + BASE, "objectClass: organizationalUnit", "ou: Groups2"));
      for (String user : List.of("alice", "bob", "carol")) {
        c.add(
            new Entry(
                "dn: uid=" + user + ",ou=Groups2," + BASE,
                "objectClass: inetOrgPerson",
                "uid: " + user,
                "cn: " + user,
                "sn: " + user));
      }
      c.add(
          new Entry(
              "dn: cn=admins,ou=Groups2," + BASE,
              "objectClass: groupOfNames",
              "cn: admins",
              "member: uid=alice,ou=Groups2," + BASE,
              "member: uid=bob,ou=Groups2," + BASE,
              "member: uid=carol,ou=Groups2," + BASE));
    }
    // Superior classes match: inetOrgPersons are persons.
    assertThat(dns(ours, "ou=Groups2," + BASE, "(objectClass=person)"))
        .isEqualTo(dns(theirs, "ou=Groups2," + BASE, "(objectClass=person)"))
        .hasSize(3);
    String filter = "(memberOf=cn=admins,ou=Groups2," + BASE + ")";
    assertThat(dns(ours, "ou=Groups2," + BASE, filter))
        .isEqualTo(dns(theirs, "ou=Groups2," + BASE, filter))
        .hasSize(3);
    String alice = "uid=alice,ou=Groups2," + BASE;
    assertThat(ours.getEntry(alice, "memberOf").getAttributeValues("memberOf"))
        .containsExactly(theirs.getEntry(alice, "memberOf").getAttributeValues("memberOf"));
    for (LDAPConnection c : List.of(ours, theirs)) {
      c.delete("uid=carol,ou=Groups2," + BASE);
      c.modifyDN("uid=bob,ou=Groups2," + BASE, "uid=robert", true);
    }
    // slapd's refint overlay updates the groups in a background thread after answering.
    for (int attempt = 0;
        attempt < 50
            && !entries(ours, "ou=Groups2," + BASE).equals(entries(theirs, "ou=Groups2," + BASE));
        attempt++) {
      Thread.sleep(100);
    }
    assertSameEntries("ou=Groups2," + BASE);
    assertThat(ours.getEntry("cn=admins,ou=Groups2," + BASE).getAttributeValues("member"))
        .containsExactlyInAnyOrder(alice, "uid=robert,ou=Groups2," + BASE);
  }

  // ---------------------------------------------------------------- script runner

  /**
   * What is compared: result code and matched DN; {@code message} only says whether there was one.
   */
  record Outcome(ResultCode code, String matchedDn, boolean message) {
    Outcome(ResultCode code) {
      this(code, null, false);
    }
  }

  @FunctionalInterface
  interface Operation {
    LDAPResult run() throws LDAPException;
  }

  private static Outcome outcome(Operation operation) {
    LDAPResult result;
    try {
      result = operation.run();
    } catch (LDAPException e) {
      result = e.toLDAPResult();
    }
    String message = result.getDiagnosticMessage();
    return new Outcome(
        result.getResultCode(),
        normalize(result.getMatchedDN()),
        message != null && !message.isEmpty());
  }

  private static String normalize(String dn) {
    if (dn == null || dn.isEmpty()) {
      return null;
    }
    try {
      return new DN(dn).toNormalizedString();
    } catch (LDAPException e) {
      return dn;
    }
  }

  /** A parent ou and one entry {@code cn=k} below it with the given attributes, on both servers. */
  private static void setUp(String ou, String... attributes) throws Exception {
    String parent = ou + "," + BASE;
    String rdnValue = ou.substring(3);
    String[] kLines = new String[attributes.length + 1];
    kLines[0] =
        "dn: " + (attributes[0].contains("organizationalUnit") ? "ou=k," : "cn=k,") + parent;
    System.arraycopy(attributes, 0, kLines, 1, attributes.length);
    for (LDAPConnection c : List.of(ours, theirs)) {
      c.add(new Entry("dn: " + parent, "objectClass: organizationalUnit", "ou: " + rdnValue));
      c.add(new Entry(kLines));
    }
  }

  /**
   * Runs each change record of {@code script} (blocks separated by blank lines; {@code %1$s} is the
   * base DN) on both servers and compares the outcomes, then the entries under {@code ou}.
   */
  private static void runScript(String ou, String script) throws Exception {
    List<String> mismatches = new ArrayList<>();
    for (String block : script.formatted(BASE).split("\n\\s*\n")) {
      String name =
          block
              .lines()
              .filter(l -> l.startsWith("#"))
              .findFirst()
              .orElse(block.lines().findFirst().orElseThrow());
      Outcome expectedDifference = null;
      int bar = name.indexOf("| rockds=");
      if (bar > 0) {
        String code = name.substring(bar + 9).split(" ")[0];
        expectedDifference = new Outcome(ResultCode.valueOf(Integer.parseInt(code)));
      }
      LDIFChangeRecord change =
          LDIFReader.decodeChangeRecord(
              new BufferedReader(new StringReader(block))
                  .lines()
                  .filter(l -> !l.startsWith("#"))
                  .toArray(String[]::new));
      Outcome mine = outcome(() -> change.processChange(ours));
      Outcome slapds = outcome(() -> change.processChange(theirs));
      String problem = compare(name, mine, slapds, expectedDifference);
      if (problem != null) {
        mismatches.add(problem);
      }
    }
    assertThat(mismatches).as("outcomes that differ from slapd").isEmpty();
    assertSameEntries(ou + "," + BASE);
  }

  private static void assertSame(
      String name, Outcome mine, Outcome slapds, Outcome expectedDifference) {
    assertThat(compare(name, mine, slapds, expectedDifference)).isNull();
  }

  private static String compare(
      String name, Outcome mine, Outcome slapds, Outcome expectedDifference) {
    if (expectedDifference != null) {
      return mine.code() == expectedDifference.code()
          ? null
          : name + ": RockDS " + mine + " but the script expects " + expectedDifference.code();
    }
    boolean same =
        mine.code() == slapds.code()
            && java.util.Objects.equals(mine.matchedDn(), slapds.matchedDn())
            && (mine.message() || !slapds.message());
    return same ? null : name + ": RockDS " + mine + ", slapd " + slapds;
  }

  /** The user attributes of every entry of a subtree are the same on both servers. */
  private static void assertSameEntries(String base) throws LDAPException {
    assertThat(entries(ours, base)).isEqualTo(entries(theirs, base));
  }

  private static Map<String, Map<String, Set<String>>> entries(LDAPConnection c, String base)
      throws LDAPException {
    Map<String, Map<String, Set<String>>> all = new TreeMap<>();
    SearchResult result = c.search(new SearchRequest(base, SearchScope.SUB, "(objectClass=*)"));
    for (SearchResultEntry e : result.getSearchEntries()) {
      all.put(normalize(e.getDN()), attributes(e));
    }
    return all;
  }

  /**
   * The attributes by lower-case name. Object classes are compared with their superior classes
   * added: RockDS stores them, as OpenDJ and 389 DS do, OpenLDAP keeps only the ones given.
   */
  private static Map<String, Set<String>> attributes(Entry e) {
    Map<String, Set<String>> attributes = new TreeMap<>();
    for (Attribute a : e.getAttributes()) {
      attributes.put(a.getName().toLowerCase(Locale.ROOT), new TreeSet<>(List.of(a.getValues())));
    }
    Set<String> classes = attributes.get("objectclass");
    if (classes != null) {
      Set<String> all = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
      for (String name : classes) {
        ObjectClassDefinition oc = SCHEMA.getObjectClass(name);
        all.add(name);
        if (oc != null) {
          oc.getSuperiorClasses(SCHEMA, true).forEach(sup -> all.add(sup.getNameOrOID()));
        }
      }
      attributes.put(
          "objectclass", new TreeSet<>(all.stream().map(n -> n.toLowerCase(Locale.ROOT)).toList()));
    }
    return attributes;
  }

  private static Set<String> dns(LDAPConnection c, String base, String filter)
      throws LDAPException {
    Set<String> dns = new TreeSet<>();
    for (SearchResultEntry e : c.search(base, SearchScope.SUB, filter, "1.1").getSearchEntries()) {
      dns.add(normalize(e.getDN()));
    }
    return dns;
  }

  private static List<String> names(Entry e) {
    return e.getAttributes().stream().map(Attribute::getBaseName).toList();
  }

  private static List<String> lower(List<String> names) {
    return names.stream().map(n -> n.toLowerCase(Locale.ROOT)).toList();
  }
}
