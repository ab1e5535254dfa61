package io.rockds.server.security;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldif.LDIFException;
import io.rockds.config.ConfigStore;
import io.rockds.server.TestServer;
import java.util.ArrayList;
import java.util.List;

/** Users, groups and helpers shared by the security integration tests. */
final class SecurityFixture {
  static final String PEOPLE = "ou=People," + TestServer.BASE;
  static final String ALICE = "uid=alice," + PEOPLE;
  static final String BOB = "uid=bob," + PEOPLE;
  static final String CAROL = "uid=carol," + PEOPLE;

  /** Holds password-reset and proxied-auth. */
  static final String ADMIN = "uid=admin," + PEOPLE;

  static final String EDITORS = "cn=Editors,ou=Groups," + TestServer.BASE;
  static final String ALICE_PASSWORD = "alice-password-1";
  static final String BOB_PASSWORD = "bob-password-1";
  static final String CAROL_PASSWORD = "carol-password-1";
  static final String ADMIN_PASSWORD = "admin-password-1";

  static final String PASSWORD_POLICIES = "cn=Password Policies,cn=config";

  private SecurityFixture() {}

  static List<Entry> entries() throws LDIFException {
    List<Entry> entries = new ArrayList<>(TestServer.baseEntries());
    entries.add(person("alice", ALICE_PASSWORD, "telephoneNumber: +1 555 0100"));
    entries.add(person("bob", BOB_PASSWORD, "description: bob"));
    entries.add(person("carol", CAROL_PASSWORD));
    entries.add(
        person(
            "admin",
            ADMIN_PASSWORD,
            "ds-privilege-name: password-reset",
            "ds-privilege-name: proxied-auth"));
    entries.add(
        new Entry(
            "dn: " + EDITORS,
            "objectClass: top",
            "objectClass: groupOfNames",
            "cn: Editors",
            "member: " + ALICE));
    return entries;
  }

  static Entry person(String uid, String password, String... extra) throws LDIFException {
    List<String> lines =
        new ArrayList<>(
            List.of(
                "dn: uid=" + uid + "," + PEOPLE,
                "objectClass: top",
                "objectClass: person",
                "objectClass: organizationalPerson",
                "objectClass: inetOrgPerson",
                "uid: " + uid,
                "cn: " + uid,
                "sn: " + uid,
                "userPassword: " + password));
    lines.addAll(List.of(extra));
    return new Entry(lines.toArray(String[]::new));
  }

  /**
   * A password policy entry of cn=config named {@code cn}, with {@code properties} as LDIF lines.
   */
  static Entry passwordPolicy(String cn, String... properties) throws LDIFException {
    List<String> lines =
        new ArrayList<>(
            List.of(
                "dn: cn=" + cn + "," + PASSWORD_POLICIES,
                "objectClass: top",
                "objectClass: ds-cfg-password-policy",
                "cn: " + cn));
    lines.addAll(List.of(properties));
    return new Entry(lines.toArray(String[]::new));
  }

  static LDAPConnection bind(TestServer server, String dn, String password) throws LDAPException {
    return new LDAPConnection("127.0.0.1", server.ldapPort(), dn, password);
  }

  /** Replaces (or adds) configuration entries, then restarts the server so they apply. */
  static void reconfigure(TestServer server, Entry... entries) throws Exception {
    ConfigStore store = ConfigStore.load(server.instance().configFile());
    for (Entry e : entries) {
      store.put(e);
    }
    store.save();
    server.restart();
  }
}
