package io.rockds.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The split between the configuration a replication group shares and each server's own, and the
 * shared part of one server's configuration taking the place of another's, leaving that server's
 * own settings as they were.
 */
class SharedConfigTest {
  @TempDir Path dir;

  @Test
  void policiesIndexesPluginsAndGlobalAcisAreSharedListenersTlsAndStorageAreNot() {
    assertThat(SharedConfig.isShared(InitialConfig.DEFAULT_PASSWORD_POLICY)).isTrue();
    assertThat(SharedConfig.isShared(ConfigDns.passwordValidator("Dictionary"))).isTrue();
    assertThat(SharedConfig.isShared(ConfigDns.passwordStorageScheme("Salted SHA-512"))).isTrue();
    assertThat(SharedConfig.isShared(ConfigDns.REFERENTIAL_INTEGRITY)).isTrue();
    assertThat(SharedConfig.isShared(InitialConfig.ACCESS_CONTROL_HANDLER)).isTrue();
    assertThat(SharedConfig.isShared(ConfigDns.index("userRoot", "mail"))).isTrue();
    assertThat(SharedConfig.isShared(ConfigDns.indexes("userRoot"))).isTrue();
    assertThat(SharedConfig.isShared(ConfigDns.vlvIndexes("userRoot"))).isTrue();

    assertThat(SharedConfig.isShared(ConfigDns.CONFIG)).isFalse();
    assertThat(SharedConfig.isShared(ConfigDns.backend("userRoot"))).isFalse();
    assertThat(SharedConfig.isShared(ConfigDns.connectionHandler("LDAP Connection Handler")))
        .isFalse();
    assertThat(SharedConfig.isShared(ConfigDns.DEFAULT_KEY_MANAGER)).isFalse();
    assertThat(SharedConfig.isShared(ConfigDns.logPublisher("File-Based Access Logger"))).isFalse();
    assertThat(SharedConfig.isShared(ConfigDns.ROOT_DNS)).isFalse();
    assertThat(SharedConfig.isShared(ConfigDns.parse("cn=Replication,cn=config"))).isFalse();

    assertThat(SharedConfig.ofModify(ConfigDns.CONFIG, List.of("ds-cfg-allow-anonymous-read")))
        .isEqualTo(SharedConfig.Scope.SHARED);
    assertThat(SharedConfig.ofModify(ConfigDns.CONFIG, List.of("ds-cfg-memory-budget")))
        .isEqualTo(SharedConfig.Scope.LOCAL);
    assertThat(
            SharedConfig.ofModify(
                ConfigDns.CONFIG,
                List.of("ds-cfg-Default-Password-Policy", "ds-cfg-num-worker-threads")))
        .isEqualTo(SharedConfig.Scope.MIXED);
  }

  @Test
  void theSharedPartOfOneServerReplacesAnothersAndLeavesItsOwnSettings() throws Exception {
    ConfigStore leader = InitialStores.saved(dir.resolve("leader"), 1389, -1);
    ConfigStore follower = InitialStores.saved(dir.resolve("follower"), 2389, -1);
    Entry global = leader.get(ConfigDns.CONFIG);
    global.setAttribute("ds-cfg-allow-anonymous-read", "true");
    global.setAttribute("ds-cfg-memory-budget", "1000000000");
    leader.put(global);
    leader.put(
        new Entry(
            "dn: " + ConfigDns.index("userRoot", "employeeNumber"),
            "objectClass: top",
            "objectClass: ds-cfg-backend-index",
            "ds-cfg-attribute: employeeNumber",
            "ds-cfg-index-type: equality"));
    Entry policy = leader.get(InitialConfig.DEFAULT_PASSWORD_POLICY);
    leader.put(
        Entry.applyModifications(
            policy,
            false,
            new Modification(ModificationType.REPLACE, "ds-cfg-min-password-length", "12")));
    follower.remove(ConfigDns.index("userRoot", "cn"));
    Entry own = follower.get(ConfigDns.CONFIG);
    own.setAttribute("ds-cfg-num-worker-threads", "16");
    follower.put(own);

    SharedConfig.replaceSharedPart(follower, SharedConfig.sharedPart(leader));

    assertThat(SharedConfig.sharedPart(follower)).isEqualTo(SharedConfig.sharedPart(leader));
    ServerConfig read = ServerConfig.read(follower);
    assertThat(read.global().workerThreads()).isEqualTo(16);
    assertThat(read.global().memoryBudgetBytes()).isZero();
    assertThat(follower.get(ConfigDns.index("userRoot", "employeeNumber"))).isNotNull();
    assertThat(follower.get(ConfigDns.index("userRoot", "cn"))).isNotNull();
    assertThat(
            follower
                .get(ConfigDns.connectionHandler("LDAP Connection Handler"))
                .getAttributeValue("ds-cfg-listen-port"))
        .isEqualTo("2389");
    assertThat(
            follower
                .get(InitialConfig.DEFAULT_PASSWORD_POLICY)
                .getAttributeValue("ds-cfg-min-password-length"))
        .isEqualTo("12");
    assertThat(follower.get(new DN("cn=config")).getAttributeValue("ds-cfg-allow-anonymous-read"))
        .isEqualTo("true");
  }
}
