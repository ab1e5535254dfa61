package io.rockds.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.config.ReferentialIntegrityConfig;
import io.rockds.server.group.Groups;
import io.rockds.server.schema.ServerSchema;
import io.rockds.storage.EntryContainer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Groups beyond what slapd's memberof overlay computes (so not in {@link ConformanceIT}): nested
 * static groups, groupOfUniqueNames, dynamic groupOfURLs, isMemberOf, filters on both, and
 * referential integrity when a subtree holding members moves.
 */
class GroupsIT {
  private static final String BASE = TestServer.BASE;
  private static final String PEOPLE = "ou=People," + BASE;
  private static final String GROUPS = "ou=Groups," + BASE;
  private static final String PLUGIN = "cn=Referential Integrity,cn=Plugins,cn=config";

  @TempDir static Path dir;
  private static TestServer server;
  private static LDAPConnection root;

  @BeforeAll
  static void start() throws Exception {
    List<Entry> entries = new ArrayList<>(TestServer.baseEntries());
    for (String uid : List.of("alice", "bob", "carol", "dave")) {
      entries.add(
          new Entry(
              "dn: uid=" + uid + "," + PEOPLE,
              "objectClass: inetOrgPerson",
              "uid: " + uid,
              "cn: " + uid,
              "sn: " + uid,
              "departmentNumber: " + (uid.equals("dave") ? "7" : "1"),
              "userPassword: secret-" + uid));
    }
    entries.add(
        new Entry(
            "dn: cn=staff," + GROUPS,
            "objectClass: groupOfNames",
            "cn: staff",
            "member: cn=admins," + GROUPS,
            "member: uid=carol," + PEOPLE));
    entries.add(
        new Entry(
            "dn: cn=admins," + GROUPS,
            "objectClass: groupOfNames",
            "cn: admins",
            "member: uid=alice," + PEOPLE,
            "member: uid=bob," + PEOPLE));
    entries.add(
        new Entry(
            "dn: cn=auditors," + GROUPS,
            "objectClass: groupOfUniqueNames",
            "cn: auditors",
            "uniqueMember: uid=bob," + PEOPLE));
    entries.add(
        new Entry(
            "dn: cn=dept7," + GROUPS,
            "objectClass: groupOfURLs",
            "cn: dept7",
            "memberURL: ldap:///" + PEOPLE + "??sub?(departmentNumber=7)"));
    server = TestServer.start(dir, entries);
    root = server.rootConnection();
  }

  @AfterAll
  static void stop() {
    if (root != null) {
      root.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void memberOf_includesNestedStaticGroups() throws Exception {
    assertThat(root.getEntry("uid=alice," + PEOPLE, "memberOf").getAttributeValues("memberOf"))
        .containsExactlyInAnyOrder("cn=admins," + GROUPS, "cn=staff," + GROUPS);
    assertThat(root.getEntry("uid=bob," + PEOPLE, "memberOf").getAttributeValues("memberOf"))
        .containsExactlyInAnyOrder(
            "cn=admins," + GROUPS, "cn=staff," + GROUPS, "cn=auditors," + GROUPS);
    assertThat(root.getEntry("uid=dave," + PEOPLE, "memberOf").hasAttribute("memberOf")).isFalse();
  }

  @Test
  void isMemberOf_addsDynamicGroups() throws Exception {
    assertThat(root.getEntry("uid=dave," + PEOPLE, "isMemberOf").getAttributeValues("isMemberOf"))
        .containsExactly("cn=dept7," + GROUPS);
  }

  @Test
  void memberOf_notReturnedUnlessAskedFor() throws Exception {
    assertThat(root.getEntry("uid=alice," + PEOPLE).hasAttribute("memberOf")).isFalse();
    assertThat(root.getEntry("uid=alice," + PEOPLE, "+").hasAttribute("memberOf")).isTrue();
  }

  @Test
  void filters_seeTheComputedValues() throws Exception {
    assertThat(uids("(memberOf=cn=staff," + GROUPS + ")"))
        .containsExactlyInAnyOrder("alice", "bob", "carol");
    assertThat(uids("(&(objectClass=person)(isMemberOf=cn=dept7," + GROUPS + "))"))
        .containsExactly("dave");
    assertThat(uids("(!(memberOf=cn=admins," + GROUPS + "))"))
        .containsExactlyInAnyOrder("carol", "dave");
  }

  @Test
  void memberIds_areThePhaseOneCandidatesOfAMemberOfFilter() throws Exception {
    Groups groups =
        new Groups(
            server.server().backends(),
            ServerSchema.load(server.instance().schemaDirectory()),
            () -> ReferentialIntegrityConfig.DISABLED);
    EntryContainer container = server.server().backends().containerFor(new DN(BASE));
    List<String> members = new ArrayList<>();
    for (long id : groups.memberIds(container, new DN("cn=staff," + GROUPS)).toArray()) {
      members.add(container.get(id).getParsedDN().getRDN().getAttributeValues()[0]);
    }
    assertThat(members).containsExactlyInAnyOrder("admins", "alice", "bob", "carol");
  }

  /**
   * Applications search by memberOf as ordinary users: an indexed search, no unindexed-search
   * privilege.
   */
  @Test
  void memberOfFilter_isIndexedByTheGroupsMembers() throws Exception {
    try (LDAPConnection alice =
        new LDAPConnection("127.0.0.1", server.ldapPort(), "uid=alice," + PEOPLE, "secret-alice")) {
      List<String> found = new ArrayList<>();
      for (SearchResultEntry e :
          alice
              .search(
                  BASE,
                  SearchScope.SUB,
                  "(&(objectClass=person)(memberOf=cn=staff," + GROUPS + "))",
                  "uid")
              .getSearchEntries()) {
        found.add(e.getAttributeValue("uid"));
      }
      assertThat(found).containsExactlyInAnyOrder("alice", "bob", "carol");
    }
    String trace =
        root.search(
                BASE, SearchScope.SUB, "(memberOf=cn=admins," + GROUPS + ")", "debugsearchindex")
            .getSearchEntries()
            .get(0)
            .getAttributeValue("debugsearchindex");
    assertThat(trace).contains("\"virtual\":\"memberOf\"").contains("\"candidates\":2");
  }

  @Test
  void compare_onMemberOf() throws Exception {
    assertThat(
            root.compare("uid=carol," + PEOPLE, "memberOf", "cn=staff," + GROUPS).compareMatched())
        .isTrue();
    assertThat(
            root.compare("uid=carol," + PEOPLE, "memberOf", "cn=admins," + GROUPS).compareMatched())
        .isFalse();
  }

  @Test
  void referentialIntegrity_canBeTurnedOffOnline() throws Exception {
    root.add(
        new Entry(
            "dn: uid=frank," + PEOPLE,
            "objectClass: inetOrgPerson",
            "uid: frank",
            "cn: frank",
            "sn: frank"));
    root.add(
        new Entry(
            "dn: uid=gina," + PEOPLE,
            "objectClass: inetOrgPerson",
            "uid: gina",
            "cn: gina",
            "sn: gina"));
    root.add(
        new Entry(
            "dn: cn=project," + GROUPS,
            "objectClass: groupOfNames",
            "cn: project",
            "member: uid=frank," + PEOPLE,
            "member: uid=gina," + PEOPLE));
    try {
      root.modify(PLUGIN, new Modification(ModificationType.REPLACE, "ds-cfg-enabled", "false"));
      root.delete("uid=frank," + PEOPLE);
      assertThat(root.getEntry("cn=project," + GROUPS).getAttributeValues("member")).hasSize(2);
    } finally {
      root.modify(PLUGIN, new Modification(ModificationType.REPLACE, "ds-cfg-enabled", "true"));
    }
    root.delete("uid=gina," + PEOPLE);
    assertThat(root.getEntry("cn=project," + GROUPS).getAttributeValues("member"))
        .containsExactly("uid=frank," + PEOPLE);
  }

  @Test
  void referentialIntegrity_followsASubtreeMove() throws Exception {
    root.add(new Entry("dn: ou=Team," + BASE, "objectClass: organizationalUnit", "ou: Team"));
    root.add(
        new Entry(
            "dn: uid=erin,ou=Team," + BASE,
            "objectClass: inetOrgPerson",
            "uid: erin",
            "cn: erin",
            "sn: erin"));
    root.add(
        new Entry(
            "dn: cn=team," + GROUPS,
            "objectClass: groupOfNames",
            "cn: team",
            "member: uid=erin,ou=Team," + BASE,
            "member: uid=alice," + PEOPLE));
    root.modifyDN("ou=Team," + BASE, "ou=Crew", true, PEOPLE);
    assertThat(root.getEntry("cn=team," + GROUPS).getAttributeValues("member"))
        .containsExactlyInAnyOrder("uid=erin,ou=Crew," + PEOPLE, "uid=alice," + PEOPLE);
    root.delete("uid=erin,ou=Crew," + PEOPLE);
    assertThat(root.getEntry("cn=team," + GROUPS).getAttributeValues("member"))
        .containsExactly("uid=alice," + PEOPLE);
  }

  private static List<String> uids(String filter) throws Exception {
    List<String> uids = new ArrayList<>();
    for (SearchResultEntry e :
        root.search(PEOPLE, SearchScope.ONE, filter, "uid").getSearchEntries()) {
      uids.add(e.getAttributeValue("uid"));
    }
    return uids;
  }

  @Test
  void referentialIntegrity_followsTheConfiguredAttributeTypesBelowTheConfiguredBaseDns()
      throws Exception {
    root.add(
        new Entry(
            "dn: uid=hugo," + PEOPLE,
            "objectClass: inetOrgPerson",
            "uid: hugo",
            "cn: hugo",
            "sn: hugo"));
    root.add(
        new Entry(
            "dn: cn=hugo-team," + GROUPS,
            "objectClass: groupOfNames",
            "cn: hugo-team",
            "member: uid=hugo," + PEOPLE,
            "seeAlso: uid=hugo," + PEOPLE));
    root.add(
        new Entry(
            "dn: uid=ida," + PEOPLE,
            "objectClass: inetOrgPerson",
            "uid: ida",
            "cn: ida",
            "sn: ida",
            "seeAlso: uid=hugo," + PEOPLE));
    root.modify(
        PLUGIN,
        new Modification(
            ModificationType.REPLACE, "ds-cfg-attribute-type", "member", "uniqueMember", "seeAlso"),
        new Modification(ModificationType.REPLACE, "ds-cfg-base-dn", GROUPS));
    try {
      root.modifyDN("uid=hugo," + PEOPLE, "uid=hugo2", true);
      Entry team = root.getEntry("cn=hugo-team," + GROUPS);
      assertThat(team.getAttributeValues("member")).containsExactly("uid=hugo2," + PEOPLE);
      assertThat(team.getAttributeValues("seeAlso")).containsExactly("uid=hugo2," + PEOPLE);
      // Outside the plugin's base DN nothing changes.
      assertThat(root.getEntry("uid=ida," + PEOPLE).getAttributeValues("seeAlso"))
          .containsExactly("uid=hugo," + PEOPLE);
      root.delete("uid=hugo2," + PEOPLE);
      team = root.getEntry("cn=hugo-team," + GROUPS);
      assertThat(team.hasAttribute("member")).isFalse();
      assertThat(team.hasAttribute("seeAlso")).isFalse();
    } finally {
      root.delete("uid=ida," + PEOPLE);
      root.delete("cn=hugo-team," + GROUPS);
      root.modify(
          PLUGIN,
          new Modification(
              ModificationType.REPLACE, "ds-cfg-attribute-type", "member", "uniqueMember"),
          new Modification(ModificationType.DELETE, "ds-cfg-base-dn"));
    }
  }
}
