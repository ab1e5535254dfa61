package io.rockds.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.config.ConfigStore;
import io.rockds.config.ReplicationConfig;
import io.rockds.config.ServerConfig;
import io.rockds.layout.Instance;
import io.rockds.storage.Backend;
import io.rockds.storage.EntryContainer;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replicated server that crashed after applying a delete but before the group updates of its
 * referential integrity finishes them at its next start: the delete's batch stored them.
 */
class InterruptedIntegrityIT {
  private static final String BASE = TestServer.BASE;

  @TempDir Path directory;

  @Test
  void theGroupUpdatesACrashInterruptedAreMadeAtTheNextStart() throws Exception {
    Instance instance = new Instance(directory.resolve("ds0"));
    InstanceSetup.create(
        instance,
        InstanceSetup.loopback(new DN(BASE), 0, 0).withHttpPort(0),
        TestServer.ROOT_PASSWORD,
        List.of());
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    String address = "127.0.0.1:" + port;
    ConfigStore store = ConfigStore.load(instance.configFile());
    // A group of one: the server applies the replication log, as every member of a group does.
    store.put(
        new ReplicationConfig(
                "ds0",
                "127.0.0.1",
                port,
                List.of(address),
                Duration.ofSeconds(30),
                Duration.ofMillis(500))
            .toEntry());
    store.save();
    DN member = new DN("uid=leaving," + BASE);
    String group = "cn=staff," + BASE;
    try (DirectoryServer server = DirectoryServer.start(instance);
        LDAPConnection c = connect(server)) {
      c.add("dn: " + BASE, "objectClass: top", "objectClass: domain", "dc: example");
      c.add("dn: " + member, "objectClass: inetOrgPerson", "uid: leaving", "cn: l", "sn: l");
      c.add(
          "dn: uid=staying," + BASE,
          "objectClass: inetOrgPerson",
          "uid: staying",
          "cn: s",
          "sn: s");
      c.add(
          "dn: " + group,
          "objectClass: groupOfNames",
          "cn: staff",
          "member: " + member,
          "member: uid=staying," + BASE);
    }
    // The state a crash leaves between the delete's batch and the group's update.
    try (Backends backends =
        Backends.open(
            ServerConfig.read(ConfigStore.load(instance.configFile())).backends(),
            instance,
            Schema.getDefaultStandardSchema())) {
      Backend storage = backends.all().get(0);
      EntryContainer container = storage.containerFor(member);
      storage.following(
          () -> IntegrityFollowUp.deleted(List.of(member)).encode(),
          () -> {
            container.delete(member);
            return null;
          });
    }
    try (DirectoryServer server = DirectoryServer.start(instance);
        LDAPConnection c = connect(server)) {
      assertThat(c.getEntry(member.toString())).isNull();
      assertThat(c.getEntry(group).getAttributeValues("member"))
          .containsExactly("uid=staying," + BASE);
    }
  }

  private static LDAPConnection connect(DirectoryServer server) throws Exception {
    return new LDAPConnection(
        "127.0.0.1", server.ldapPort(), TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
  }
}
