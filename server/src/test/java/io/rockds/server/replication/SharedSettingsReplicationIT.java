package io.rockds.server.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.config.ConfigDns;
import io.rockds.config.InitialConfig;
import io.rockds.replication.GroupStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The settings every server of a group shares travel through the replication log: a schema
 * extension, a password policy, the default policy, index definitions written through one server
 * are in force on the others, also on a server that was stopped meanwhile (it replays the log), on
 * one rebuilt from a snapshot after it lost its configuration, schema and database, and on one that
 * receives the leader's snapshot while it runs, the log it missed being purged. A change the
 * leader's settings refuse never enters the log; a change mixing shared settings with a server's
 * own is refused.
 */
class SharedSettingsReplicationIT {
  private static final String BASE = ReplicationGroup.BASE;
  private static final String BADGE_TYPE =
      "( 1.3.6.1.4.1.99999.1.1 NAME 'rockdsBadge' EQUALITY caseIgnoreMatch"
          + " SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )";
  private static final String BADGED_CLASS =
      "( 1.3.6.1.4.1.99999.2.1 NAME 'rockdsBadged' SUP top AUXILIARY MAY rockdsBadge )";
  private static final String STRICT_POLICY =
      ConfigDns.passwordPolicy("Strict Password Policy").toString();
  private static final String INDEXES = ConfigDns.indexes("userRoot").toString();

  @TempDir Path directory;

  @AutoClose private ReplicationGroup group;

  /** The roles as the group started; the tests stop no leader. */
  private int leader;

  private int follower;
  private int other;

  @BeforeEach
  void startGroup() throws Exception {
    // Small log segments, so that a snapshot lets the others purge what a stopped server missed.
    group = ReplicationGroup.start(directory, Duration.ofSeconds(30), 64 * 1024);
    leader = group.awaitLeader();
    follower = (leader + 1) % 3;
    other = (leader + 2) % 3;
  }

  @Test
  void schemaAddedThroughOneServerIsUsedByAnAddThroughAnother() throws Exception {
    group.addBase(leader);
    // Written on a follower: forwarded to the leader like the write of an entry.
    extendSchema(follower);
    group.readCommitted(other, BASE);
    try (LDAPConnection c = group.connect(other)) {
      Entry badged = ReplicationGroup.user("badged");
      badged.addAttribute("objectClass", "rockdsBadged");
      badged.addAttribute("rockdsBadge", "gold");
      c.add(badged);
    }
    for (int i = 0; i < 3; i++) {
      assertThat(schemaValues(i, "attributeTypes")).anyMatch(v -> v.contains("'rockdsBadge'"));
      assertThat(schemaValues(i, "objectClasses")).anyMatch(v -> v.contains("'rockdsBadged'"));
      assertThat(group.awaitEntry(i, "uid=badged," + BASE).getAttributeValue("rockdsBadge"))
          .isEqualTo("gold");
    }
    // A definition the schema already has is refused by the leader before it is appended.
    GroupStatus before = group.server(leader).replication().status();
    try (LDAPConnection c = group.connect(other)) {
      assertThatThrownBy(
              () ->
                  c.modify(
                      "cn=schema",
                      new Modification(ModificationType.ADD, "attributeTypes", BADGE_TYPE)))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.ATTRIBUTE_OR_VALUE_EXISTS));
    }
    GroupStatus after = group.server(leader).replication().status();
    if (after.term() == before.term()) { // else a new leader appended its first entry meanwhile
      assertThat(after.commitIndex()).isEqualTo(before.commitIndex());
    }
  }

  @Test
  void aPasswordPolicyMadeTheDefaultOnOneServerGovernsTheOthers() throws Exception {
    group.addBase(leader);
    strictPolicyAsDefault(follower);
    assertThat(group.readCommitted(other, STRICT_POLICY).getAttributeValue("cn"))
        .isEqualTo("Strict Password Policy");
    assertPolicyEnforced(other, "other");
    // A change of shared and of own global settings at once goes nowhere.
    try (LDAPConnection c = group.connect(follower)) {
      assertThatThrownBy(
              () ->
                  c.modify(
                      "cn=config",
                      new Modification(
                          ModificationType.REPLACE,
                          "ds-cfg-default-password-policy",
                          InitialConfig.DEFAULT_PASSWORD_POLICY.toString()),
                      new Modification(ModificationType.REPLACE, "ds-cfg-size-limit", "500")))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.UNWILLING_TO_PERFORM));
    }
    // A server's own settings stay its own.
    try (LDAPConnection c = group.connect(follower)) {
      c.modify("cn=config", new Modification(ModificationType.REPLACE, "ds-cfg-size-limit", "500"));
    }
    group.readCommitted(other, BASE);
    assertThat(group.read(follower, "cn=config").getAttributeValue("ds-cfg-size-limit"))
        .isEqualTo("500");
    assertThat(group.read(other, "cn=config").getAttributeValue("ds-cfg-size-limit"))
        .isNotEqualTo("500");
  }

  @Test
  void anIndexCreatedOnOneServerIsUsedByTheOthersAndUntrustedAlikeWhenCreatedOverEntries()
      throws Exception {
    // Created while the backend holds no entry: trusted at once, on every server.
    createIndex(follower, "employeeNumber");
    group.addBase(leader);
    try (LDAPConnection c = group.connect(leader)) {
      for (int n = 0; n < 5; n++) {
        Entry user = ReplicationGroup.user("numbered" + n);
        user.addAttribute("employeeNumber", Integer.toString(n));
        user.addAttribute("description", "group" + n);
        c.add(user);
      }
    }
    group.readCommitted(other, "uid=numbered4," + BASE);
    assertThat(trace(other, "(employeeNumber=3)"))
        .contains("\"index\":\"employeeNumber.caseIgnoreMatch\"");
    // Created over entries: untrusted until rebuilt on each server, as on a single server.
    createIndex(follower, "description");
    group.readCommitted(other, BASE);
    assertThat(trace(other, "(description=group3)"))
        .contains("\"untrusted\":\"description.caseIgnoreMatch\"");
    for (int i = 0; i < 3; i++) {
      assertThat(group.read(i, "ds-cfg-attribute=description," + INDEXES)).isNotNull();
    }
  }

  @Test
  void aServerAwayCatchesUpFromTheLogAndOneThatLostItsSettingsFromASnapshot() throws Exception {
    int away = follower;
    group.addBase(leader);
    group.readCommitted(away, BASE);
    Path config = group.instance(away).configFile();
    Path setUp = directory.resolve("config-as-set-up.ldif");
    Files.copy(config, setUp);
    group.stop(away);

    extendSchema(other);
    strictPolicyAsDefault(other);
    createIndex(other, "employeeNumber");

    group.start(away);
    group.awaitHealth(away, "200 ready"); // it knows the leader again
    group.readCommitted(away, BASE);
    assertSettingsOf(away, "replayed");

    long snapshot = group.server(away).replication().takeSnapshot();
    assertThat(snapshot).isPositive();
    try (LDAPConnection c = group.connect(leader)) {
      c.add(ReplicationGroup.user("after-the-snapshot-1234"));
    }
    group.awaitEntry(away, "uid=after-the-snapshot-1234," + BASE);
    group.stop(away);
    // The server loses its settings and its database: its configuration as set up, no schema
    // added over LDAP, no settings position, no entries.
    Files.copy(setUp, config, StandardCopyOption.REPLACE_EXISTING);
    Files.delete(config.resolveSibling(ReplicatedSettings.POSITION));
    Files.delete(group.instance(away).schemaDirectory().resolve("99-user.ldif"));
    group.deleteDatabase(away);

    group.start(away);
    group.awaitHealth(away, "200 ready");
    group.awaitEntry(away, "uid=after-the-snapshot-1234," + BASE);
    assertSettingsOf(away, "installed");
  }

  @Test
  void aServerBehindThePurgedLogTakesTheSettingsOfTheSnapshotItReceives() throws Exception {
    int away = follower;
    group.addBase(leader);
    group.readCommitted(away, BASE);
    long awayAt = group.server(away).replication().status().appliedIndex();
    group.stop(away);
    extendSchema(other);
    strictPolicyAsDefault(other);
    createIndex(other, "employeeNumber");
    // Enough log behind the settings records for a snapshot to purge them, in whole segments.
    try (LDAPConnection c = group.connect(leader)) {
      for (int n = 0; n < 300; n++) {
        Entry user = ReplicationGroup.user("filler" + n);
        user.setAttribute("userPassword", "a-passphrase-long-enough-" + n);
        user.addAttribute("description", "x".repeat(200));
        c.add(user);
      }
    }
    group.readCommitted(other, BASE);
    for (int i : new int[] {leader, other}) {
      group.server(i).replication().takeSnapshot();
      assertThat(group.server(i).replication().status().logStartIndex())
          .as("ds" + i + " purged the log ds" + away + " missed")
          .isGreaterThan(awayAt + 1);
    }

    // The server receives the leader's snapshot while it runs, and restarts to install it.
    group.start(away);
    assertThat(group.restartWhenAsked(away)).contains("the shared settings");
    group.awaitHealth(away, "200 ready");
    group.readCommitted(away, "uid=filler299," + BASE);
    assertSettingsOf(away, "received");
  }

  /** The settings the catch-up test wrote are in force on server {@code i}. */
  private void assertSettingsOf(int i, String tag) throws Exception {
    assertThat(schemaValues(i, "attributeTypes")).anyMatch(v -> v.contains("'rockdsBadge'"));
    assertThat(group.read(i, STRICT_POLICY)).isNotNull();
    assertThat(group.read(i, "ds-cfg-attribute=employeeNumber," + INDEXES)).isNotNull();
    assertPolicyEnforced(i, tag);
  }

  /** Adds the rockdsBadge attribute type and the rockdsBadged class through server {@code i}. */
  private void extendSchema(int i) throws LDAPException {
    try (LDAPConnection c = group.connect(i)) {
      c.modify(
          "cn=schema",
          new Modification(ModificationType.ADD, "attributeTypes", BADGE_TYPE),
          new Modification(ModificationType.ADD, "objectClasses", BADGED_CLASS));
    }
  }

  /**
   * Through server {@code i}: a policy wanting passwords of 20 characters, a copy of the default
   * one otherwise, made the default policy.
   */
  private void strictPolicyAsDefault(int i) throws LDAPException {
    try (LDAPConnection c = group.connect(i)) {
      Entry strict =
          new Entry(
              STRICT_POLICY,
              c.getEntry(InitialConfig.DEFAULT_PASSWORD_POLICY.toString()).getAttributes());
      strict.setAttribute("cn", "Strict Password Policy");
      strict.setAttribute("ds-cfg-min-password-length", "20");
      c.add(strict);
      c.modify(
          "cn=config",
          new Modification(
              ModificationType.REPLACE, "ds-cfg-default-password-policy", STRICT_POLICY));
    }
  }

  /**
   * Server {@code i} refuses a new password of fewer than 20 characters, takes a longer one (for a
   * user named after {@code tag}).
   */
  private void assertPolicyEnforced(int i, String tag) throws Exception {
    Entry shortOne = ReplicationGroup.user("short-" + tag);
    shortOne.setAttribute("userPassword", "only-13-chars");
    try (LDAPConnection c = group.connect(i)) {
      assertThatThrownBy(() -> c.add(shortOne))
          .as("a short password on ds" + i)
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.CONSTRAINT_VIOLATION));
      Entry longer = ReplicationGroup.user("long-" + tag);
      longer.setAttribute("userPassword", "a-passphrase-long-enough-" + i);
      assertThat(c.add(longer).getResultCode()).isEqualTo(ResultCode.SUCCESS);
    }
  }

  /** Through server {@code i}: an equality index of {@code attribute} in userRoot. */
  private void createIndex(int i, String attribute) throws LDAPException {
    try (LDAPConnection c = group.connect(i)) {
      c.add(
          new Entry(
              "ds-cfg-attribute=" + attribute + "," + INDEXES,
              new Attribute("objectClass", "top", "ds-cfg-backend-index"),
              new Attribute("ds-cfg-attribute", attribute),
              new Attribute("ds-cfg-index-type", "equality")));
    }
  }

  private String[] schemaValues(int i, String attribute) throws LDAPException {
    try (LDAPConnection c = group.connect(i)) {
      return c.getEntry("cn=schema", attribute).getAttributeValues(attribute);
    }
  }

  /** The debugsearchindex trace of {@code filter} on server {@code i}. */
  private String trace(int i, String filter) throws LDAPException {
    try (LDAPConnection c = group.connect(i)) {
      return c.search(BASE, SearchScope.SUB, filter, "debugsearchindex")
          .getSearchEntries()
          .get(0)
          .getAttributeValue("debugsearchindex");
    }
  }
}
