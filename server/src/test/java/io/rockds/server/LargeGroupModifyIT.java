package io.rockds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchScope;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;

/**
 * A group of 20,000 members changed one member at a time over LDAP: the modify's rules (RFC 4511
 * section 4.6, schema) as for any group, while the server reads a few members of it, not all,
 * counted by RocksDB's statistics (iterator steps: seeks and nexts).
 */
class LargeGroupModifyIT {
  private static final int MEMBERS = 20_000;
  private static final String PEOPLE = "ou=People," + TestServer.BASE;
  private static final String GROUP = "cn=big,ou=Groups," + TestServer.BASE;
  private static final String SMALL = "cn=small,ou=Groups," + TestServer.BASE;
  private static final String EMPTIED = "cn=emptied,ou=Groups," + TestServer.BASE;
  private static final String PERMISSIVE_MODIFY = "1.2.840.113556.1.4.1413";
  private static final String OUTSIDER = "uid=outsider," + PEOPLE;

  @TempDir static Path dir;
  private static TestServer server;
  private static LDAPConnection root;
  private static Statistics statistics;

  @BeforeAll
  static void start() throws Exception {
    List<Entry> entries = new ArrayList<>(TestServer.baseEntries());
    for (int i = 0; i < 5; i++) {
      entries.add(person(member(i), "u" + i));
    }
    entries.add(person(OUTSIDER, "outsider"));
    List<String> members = new ArrayList<>();
    for (int i = 0; i < MEMBERS; i++) {
      members.add(member(i));
    }
    Entry group = new Entry(GROUP);
    group.addAttribute("objectClass", "groupOfNames");
    group.addAttribute("cn", "big");
    group.addAttribute("member", members);
    // Members manage the membership: access control reads the members to decide.
    group.addAttribute(
        "aci",
        "(targetattr=\"member\")(version 3.0; acl \"members manage\";"
            + " allow (read,search,compare,write) userattr=\"member#USERDN\";)");
    entries.add(group);
    for (String small : List.of(SMALL, EMPTIED)) {
      entries.add(
          new Entry(
              "dn: " + small,
              "objectClass: groupOfNames",
              "cn: " + new DN(small).getRDN().getAttributeValues()[0],
              "member: " + member(0),
              "member: " + member(1)));
    }
    server = TestServer.start(dir, entries);
    root = server.rootConnection();
    statistics =
        server.server().backends().containerFor(new DN(TestServer.BASE)).backend().statistics();
  }

  @AfterAll
  static void stop() {
    root.close();
    server.close();
  }

  private static String member(int i) {
    return "uid=u" + i + "," + PEOPLE;
  }

  private static Entry person(String dn, String uid) {
    return new Entry(
        dn,
        new Attribute("objectClass", "account", "simpleSecurityObject"),
        new Attribute("uid", uid),
        new Attribute("userPassword", "secret-" + uid));
  }

  private static LDAPConnection bind(String dn, String uid) throws LDAPException {
    return new LDAPConnection("127.0.0.1", server.ldapPort(), dn, "secret-" + uid);
  }

  private static long steps() {
    return statistics.getTickerCount(TickerType.NUMBER_DB_SEEK)
        + statistics.getTickerCount(TickerType.NUMBER_DB_NEXT);
  }

  private static void assertCode(ThrowingRunnable run, ResultCode code) {
    assertThatThrownBy(run::run)
        .isInstanceOfSatisfying(
            LDAPException.class, e -> assertThat(e.getResultCode()).isEqualTo(code));
  }

  @FunctionalInterface
  private interface ThrowingRunnable {
    void run() throws Exception;
  }

  @Test
  void addingAndRemovingOneMemberReadsAFewMembersNotAll() throws Exception {
    root.modify(GROUP, new Modification(ModificationType.ADD, "member", member(MEMBERS + 1)));
    long start = steps();
    root.modify(GROUP, new Modification(ModificationType.ADD, "member", member(MEMBERS)));
    long added = steps() - start;
    start = steps();
    root.modify(GROUP, new Modification(ModificationType.DELETE, "member", member(MEMBERS)));
    long removed = steps() - start;
    root.modify(GROUP, new Modification(ModificationType.DELETE, "member", member(MEMBERS + 1)));
    assertThat(added).as("iterator steps adding a member").isLessThan(100);
    assertThat(removed).as("iterator steps removing a member").isLessThan(100);
    assertThat(root.getEntry(GROUP, "member").getAttributeValues("member")).hasSize(MEMBERS);
    assertThat(root.getEntry(member(3), "memberOf").getAttributeValues("memberOf")).contains(GROUP);
  }

  @Test
  void theRulesOfModifyHoldAsForAnyGroup() throws Exception {
    assertCode(
        () -> root.modify(GROUP, new Modification(ModificationType.ADD, "member", member(7))),
        ResultCode.ATTRIBUTE_OR_VALUE_EXISTS);
    // Equal under distinguishedNameMatch, written otherwise.
    assertCode(
        () ->
            root.modify(
                GROUP,
                new Modification(
                    ModificationType.ADD, "member", "UID=u7, ou=people,dc=example,dc=com")),
        ResultCode.ATTRIBUTE_OR_VALUE_EXISTS);
    assertCode(
        () ->
            root.modify(
                GROUP, new Modification(ModificationType.DELETE, "member", member(MEMBERS + 9))),
        ResultCode.NO_SUCH_ATTRIBUTE);
    ModifyRequest permissive =
        new ModifyRequest(
            GROUP,
            new Modification(ModificationType.ADD, "member", member(7), member(MEMBERS + 7)));
    permissive.addControl(new Control(PERMISSIVE_MODIFY, false));
    assertThat(root.modify(permissive).getResultCode()).isEqualTo(ResultCode.SUCCESS);
    assertThat(root.compare(GROUP, "member", member(MEMBERS + 7)).compareMatched()).isTrue();
    root.modify(
        GROUP,
        new Modification(
            ModificationType.DELETE, "member", "UID=U" + (MEMBERS + 7) + "," + PEOPLE));
    assertThat(root.compare(GROUP, "member", member(MEMBERS + 7)).compareMatched()).isFalse();

    // groupOfNames allows an empty group (MAY member, as the SDK's standard schema and OpenDJ have
    // it): the last members may go.
    root.modify(EMPTIED, new Modification(ModificationType.DELETE, "member", member(0), member(1)));
    assertThat(root.getEntry(EMPTIED).hasAttribute("member")).isFalse();

    // A class requiring member keeps the last values, whichever way they would go.
    root.modify(
        "cn=schema",
        new Modification(
            ModificationType.ADD,
            "objectClasses",
            "( 1.3.6.1.4.1.32473.1.1 NAME 'rockdsTestRequiredMembers' SUP top AUXILIARY"
                + " MUST member )"));
    for (String group : List.of(SMALL, GROUP)) {
      root.modify(
          group,
          new Modification(ModificationType.ADD, "objectClass", "rockdsTestRequiredMembers"));
    }
    assertCode(
        () ->
            root.modify(
                SMALL, new Modification(ModificationType.DELETE, "member", member(0), member(1))),
        ResultCode.OBJECT_CLASS_VIOLATION);
    assertCode(
        () -> root.modify(SMALL, new Modification(ModificationType.DELETE, "member")),
        ResultCode.OBJECT_CLASS_VIOLATION);
    assertCode(
        () -> root.modify(GROUP, new Modification(ModificationType.DELETE, "member")),
        ResultCode.OBJECT_CLASS_VIOLATION);
    assertThat(root.getEntry(GROUP, "member").getAttributeValues("member")).hasSize(MEMBERS);
    root.modify(SMALL, new Modification(ModificationType.REPLACE, "member", member(2)));
    assertThat(root.getEntry(SMALL, "member").getAttributeValues("member"))
        .containsExactly(member(2));
    root.modify(
        SMALL,
        new Modification(ModificationType.DELETE, "member", member(2)),
        new Modification(ModificationType.ADD, "member", member(4)));
    assertThat(root.getEntry(SMALL, "member").getAttributeValues("member"))
        .containsExactly(member(4));
    root.modify(
        GROUP,
        new Modification(ModificationType.DELETE, "objectClass", "rockdsTestRequiredMembers"));
  }

  @Test
  void compareAndMemberFiltersSeeEveryMember() throws Exception {
    long start = steps();
    assertThat(root.compare(GROUP, "member", member(MEMBERS - 1)).compareMatched()).isTrue();
    assertThat(root.compare(GROUP, "member", "uid=nobody," + PEOPLE).compareMatched()).isFalse();
    assertThat(steps() - start).as("iterator steps of two compares").isLessThan(20);

    SearchResult found =
        root.search(GROUP, SearchScope.BASE, "(member=" + member(MEMBERS - 2) + ")", "1.1");
    assertThat(found.getEntryCount()).isEqualTo(1);
    assertThat(
            root.search(GROUP, SearchScope.BASE, "(member=uid=nobody," + PEOPLE + ")", "1.1")
                .getEntryCount())
        .isZero();
    assertThat(root.getEntry(GROUP, "cn").hasAttribute("member")).isFalse();
    assertThat(root.getEntry(GROUP).getAttributeValues("member")).hasSize(MEMBERS);
  }

  @Test
  void accessControlSeesEveryMember() throws Exception {
    try (LDAPConnection insider = bind(member(3), "u3");
        LDAPConnection outsider = bind(OUTSIDER, "outsider")) {
      insider.modify(GROUP, new Modification(ModificationType.ADD, "member", member(MEMBERS + 11)));
      assertThat(insider.compare(GROUP, "member", member(MEMBERS + 11)).compareMatched()).isTrue();
      assertCode(
          () ->
              outsider.modify(
                  GROUP, new Modification(ModificationType.ADD, "member", member(MEMBERS + 12))),
          ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
      insider.modify(
          GROUP, new Modification(ModificationType.DELETE, "member", member(MEMBERS + 11)));
    }
  }
}
