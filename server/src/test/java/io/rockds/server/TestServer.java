package io.rockds.server;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.layout.Instance;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * A real server on loopback for integration tests: a fresh instance in a temporary directory
 * (created with {@link InstanceSetup}, LDAP and LDAPS on free ports), started in-process.
 */
public final class TestServer implements AutoCloseable {
  public static final String BASE = "dc=example,dc=com";
  public static final String ROOT_DN = "cn=Directory Manager";
  public static final String ROOT_PASSWORD = "test-secret";

  private final Instance instance;
  private final Clock clock;
  private DirectoryServer server;

  private TestServer(Instance instance, Clock clock) {
    this.instance = instance;
    this.clock = clock;
  }

  /** Creates an instance under {@code dir} holding {@code entries} and starts it. */
  public static TestServer start(Path dir, List<Entry> entries) throws Exception {
    return start(dir, entries, Clock.systemUTC());
  }

  /** As {@link #start(Path, List)}, with the clock the password policy reads (lockouts, ages). */
  public static TestServer start(Path dir, List<Entry> entries, Clock clock) throws Exception {
    Instance instance = new Instance(dir.resolve("instance"));
    InstanceSetup.create(
        instance, InstanceSetup.loopback(new DN(BASE), 0, 0), ROOT_PASSWORD, entries);
    TestServer test = new TestServer(instance, clock);
    test.server = DirectoryServer.start(instance, clock);
    return test;
  }

  /** An organizationalUnit entry named {@code dn}, its {@code ou} taken from its RDN. */
  public static Entry organizationalUnit(String dn) throws com.unboundid.ldap.sdk.LDAPException {
    return new Entry(
        dn,
        new com.unboundid.ldap.sdk.Attribute("objectClass", "top", "organizationalUnit"),
        new com.unboundid.ldap.sdk.Attribute("ou", new DN(dn).getRDN().getAttributeValues()[0]));
  }

  /** The suffix entry, ou=People and ou=Groups. */
  public static List<Entry> baseEntries() throws com.unboundid.ldif.LDIFException {
    return List.of(
        new Entry("dn: " + BASE, "objectClass: top", "objectClass: domain", "dc: example"),
        new Entry(
            "dn: ou=People," + BASE,
            "objectClass: top",
            "objectClass: organizationalUnit",
            "ou: People"),
        new Entry(
            "dn: ou=Groups," + BASE,
            "objectClass: top",
            "objectClass: organizationalUnit",
            "ou: Groups"));
  }

  public int ldapPort() {
    return server.ldapPort();
  }

  public int ldapsPort() {
    return server.ldapsPort();
  }

  public Instance instance() {
    return instance;
  }

  public DirectoryServer server() {
    return server;
  }

  /** A connection bound as the root user. */
  public LDAPConnection rootConnection() throws LDAPException {
    return new LDAPConnection("127.0.0.1", ldapPort(), ROOT_DN, ROOT_PASSWORD);
  }

  public LDAPConnection anonymousConnection() throws LDAPException {
    return new LDAPConnection("127.0.0.1", ldapPort());
  }

  /** Stops and starts the server on the same instance (ports may change). */
  public void restart() throws Exception {
    server.close();
    server = DirectoryServer.start(instance, clock);
  }

  @Override
  public void close() {
    if (server != null) {
      server.close();
      server = null;
    }
  }
}
