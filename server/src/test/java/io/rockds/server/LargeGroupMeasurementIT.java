package io.rockds.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Measures adding and removing one member of a large groupOfNames, and memberOf of one member, on
 * RockDS and on slapd (memberof overlay). The default suite runs it small (2,000 members) for its
 * assertions: memberOf names the group after each add, and the group holds exactly its members
 * after each removal and rewrite. For the figures in benchmarks/RESULTS.md run it at full size
 *
 * <pre>
 * ./mvnw -B -o -q -pl server -am verify -Dtest=NoSuch -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dit.test=LargeGroupMeasurementIT -Dfailsafe.failIfNoSpecifiedTests=false -Dmembers=100000
 * </pre>
 *
 * and read them on standard output. Only correctness is asserted.
 */
class LargeGroupMeasurementIT {
  private static final int MEMBERS = Integer.getInteger("members", 2_000);
  private static final int ROUNDS = 20;
  private static final String PEOPLE = "ou=People," + TestServer.BASE;
  private static final String GROUP = "cn=big,ou=Groups," + TestServer.BASE;

  @TempDir Path dir;

  @Test
  void addAndRemoveOneMember() throws Exception {
    List<Entry> entries = new ArrayList<>(TestServer.baseEntries());
    // The member entries need not exist (nothing checks that on add); only the ones measured do.
    for (int i = MEMBERS; i < MEMBERS + ROUNDS; i++) {
      entries.add(new Entry("dn: uid=u" + i + "," + PEOPLE, "objectClass: account", "uid: u" + i));
    }
    entries.add(group());
    try (Slapd slapd = Slapd.start(dir.resolve("slapd"), TestServer.ROOT_PASSWORD);
        LDAPConnection root = slapd.rootConnection()) {
      for (Entry e : entries) {
        root.add(e);
      }
      measure("slapd ", root);
    }
    try (TestServer server = TestServer.start(dir.resolve("rockds"), entries);
        LDAPConnection root = server.rootConnection()) {
      measure("RockDS", root);
    }
  }

  private static Entry group() {
    List<String> members = new ArrayList<>(MEMBERS);
    for (int i = 0; i < MEMBERS; i++) {
      members.add("uid=u" + i + "," + PEOPLE);
    }
    Entry group = new Entry(GROUP);
    group.addAttribute("objectClass", "groupOfNames");
    group.addAttribute("cn", "big");
    group.addAttribute("member", members);
    return group;
  }

  private static void measure(String name, LDAPConnection root) throws Exception {
    long[] add = new long[ROUNDS];
    long[] remove = new long[ROUNDS];
    long[] memberOf = new long[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
      String dn = "uid=u" + (MEMBERS + r) + "," + PEOPLE;
      long t0 = System.nanoTime();
      root.modify(GROUP, new Modification(ModificationType.ADD, "member", dn));
      long t1 = System.nanoTime();
      Entry e = root.getEntry(dn, "memberOf");
      long t2 = System.nanoTime();
      root.modify(GROUP, new Modification(ModificationType.DELETE, "member", dn));
      long t3 = System.nanoTime();
      assertThat(e.getAttributeValues("memberOf")).containsExactly(GROUP);
      assertThat(root.compare(GROUP, "member", dn).compareMatched()).isFalse();
      add[r] = t1 - t0;
      memberOf[r] = t2 - t1;
      remove[r] = t3 - t2;
    }
    // For scale: the same group rewritten whole (a replace of every member value), what one
    // added member cost before index maintenance went incremental.
    long[] rewrite = new long[3];
    List<String> all =
        new ArrayList<>(Arrays.asList(root.getEntry(GROUP, "member").getAttributeValues("member")));
    for (int r = 0; r < rewrite.length; r++) {
      all.add("uid=u" + (MEMBERS + r) + "," + PEOPLE);
      long t0 = System.nanoTime();
      root.modify(
          GROUP, new Modification(ModificationType.REPLACE, "member", all.toArray(new String[0])));
      rewrite[r] = System.nanoTime() - t0;
    }
    assertThat(root.getEntry(GROUP, "member").getAttributeValues("member")).hasSize(all.size());
    System.out.printf(
        "%s %d-member group: add one member median %.1f ms, remove one member median %.1f ms, "
            + "memberOf of one member median %.2f ms (%d rounds); replace all members median %.1f ms%n",
        name, MEMBERS, median(add), median(remove), median(memberOf), ROUNDS, median(rewrite));
  }

  private static double median(long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2] / 1e6;
  }
}
