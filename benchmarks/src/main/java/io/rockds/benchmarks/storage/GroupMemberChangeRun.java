package io.rockds.benchmarks.storage;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import io.rockds.storage.Backend;
import io.rockds.storage.BulkLoad;
import io.rockds.storage.EntryContainer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;

/**
 * Does adding or removing one member cost more in a larger group? For each group size, imports a
 * groupOfNames of that many members (default indexes: member equality included), then times {@code
 * rounds} storage modifies adding one member and as many removing it, as the server makes them (the
 * change names the values it reads), and prints the medians with the keys each wrote and the
 * iterator steps each took: they should not grow with the group. For scale it also times reading
 * the whole group (a search returning member, an export) and one add made with the whole entry (how
 * every modify of a group was made before members were stored apart).
 *
 * <pre>
 *   ./mvnw -B -o -q -pl benchmarks -am package -DskipTests
 *   java -cp benchmarks/target/benchmarks.jar io.rockds.benchmarks.storage.GroupMemberChangeRun 200 10 10000 100000
 * </pre>
 */
public final class GroupMemberChangeRun {
  private static final String GROUP = "cn=big,ou=Groups," + OidTemplate.SUFFIX;
  private static final int WARM_UP = 20;

  private GroupMemberChangeRun() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    List<Integer> sizes = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      sizes.add(Integer.parseInt(args[i]));
    }
    if (sizes.isEmpty()) {
      sizes = List.of(10, 10_000, 100_000);
    }
    for (int size : sizes) {
      measure(size, rounds);
    }
  }

  private static String member(long i) {
    return "uid=user." + i + ",ou=People," + OidTemplate.SUFFIX;
  }

  private static void measure(int size, int rounds) throws Exception {
    Path dir = Files.createTempDirectory("rockds-group-run-");
    try (Backend backend = StorageRuns.open(dir.resolve("db"), false)) {
      EntryContainer container = backend.containerFor(new DN(OidTemplate.SUFFIX));
      load(container, dir.resolve("work"), size);
      DN group = new DN(GROUP);
      Statistics statistics = backend.statistics();
      for (int r = 0; r < WARM_UP; r++) {
        change(container, group, ModificationType.ADD, size + r);
        change(container, group, ModificationType.DELETE, size + r);
      }
      long[] add = new long[rounds];
      long[] remove = new long[rounds];
      long written = statistics.getTickerCount(TickerType.NUMBER_KEYS_WRITTEN);
      long steps = steps(statistics);
      for (int r = 0; r < rounds; r++) {
        long t0 = System.nanoTime();
        change(container, group, ModificationType.ADD, size + r);
        long t1 = System.nanoTime();
        change(container, group, ModificationType.DELETE, size + r);
        remove[r] = System.nanoTime() - t1;
        add[r] = t1 - t0;
      }
      double keysPerChange =
          (statistics.getTickerCount(TickerType.NUMBER_KEYS_WRITTEN) - written) / (2.0 * rounds);
      double stepsPerChange = (steps(statistics) - steps) / (2.0 * rounds);
      long t0 = System.nanoTime();
      int read = container.get(group).getAttribute("member").size();
      long readWhole = System.nanoTime() - t0;
      t0 = System.nanoTime();
      Modification one = new Modification(ModificationType.ADD, "member", member(size + rounds));
      container.modify(group, current -> Entry.applyModifications(current, false, one));
      long wholeAdd = System.nanoTime() - t0;
      System.out.printf(
          "%,9d members: add one member median %.1f us, remove one median %.1f us (%d rounds);"
              + " %.1f keys written and %.1f iterator steps per change;"
              + " reading all %,d members %.1f ms; one add shown the whole entry %.1f ms%n",
          size,
          median(add) / 1e3,
          median(remove) / 1e3,
          rounds,
          keysPerChange,
          stepsPerChange,
          read,
          readWhole / 1e6,
          wholeAdd / 1e6);
    } finally {
      StorageRuns.delete(dir);
    }
  }

  private static long steps(Statistics statistics) {
    return statistics.getTickerCount(TickerType.NUMBER_DB_SEEK)
        + statistics.getTickerCount(TickerType.NUMBER_DB_NEXT);
  }

  private static void load(EntryContainer container, Path work, int size) throws Exception {
    List<String> members = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      members.add(member(i));
    }
    try (BulkLoad load = container.startBulkLoad(work)) {
      load.add(load.prepare(OidTemplate.suffix()));
      load.add(
          load.prepare(
              new Entry(
                  "ou=Groups," + OidTemplate.SUFFIX,
                  new Attribute("objectClass", "top", "organizationalUnit"),
                  new Attribute("ou", "Groups"))));
      load.add(
          load.prepare(
              new Entry(
                  GROUP,
                  new Attribute("objectClass", "top", "groupOfNames"),
                  new Attribute("cn", "big"),
                  new Attribute("member", members))));
      load.finish();
    }
  }

  /** One modify as the server makes it: the change names the one value it reads. */
  private static void change(EntryContainer container, DN group, ModificationType type, long n)
      throws Exception {
    Modification modification = new Modification(type, "member", member(n));
    container.modify(
        group,
        List.of(modification.getAttribute()),
        current -> Entry.applyModifications(current, false, modification));
  }

  private static double median(long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
