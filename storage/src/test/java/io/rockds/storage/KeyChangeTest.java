package io.rockds.storage;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.schema.Schema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The incremental key change of a write equals the difference of the full key sets of the two
 * versions of the entry, for every index type, with values that share keys (case variants, options,
 * common substrings) and DN values.
 */
class KeyChangeTest {
  private static final String[] VALUES = {
    "Bob",
    "bob",
    "BOB ",
    "Bobby",
    "robert",
    "uid=u1,ou=People,dc=x",
    "UID=U1, ou=people,dc=X",
    "uid=u2,ou=People,dc=x",
    "cn=a\\,b,dc=x"
  };
  private static final String[] DESCRIPTIONS = {"cn", "cn;lang-en", "member"};

  @TempDir Path dir;

  @Test
  void incrementalChangeEqualsTheDifferenceOfFullKeySets() throws Exception {
    List<IndexSpec> specs =
        List.of(
            IndexSpec.of(
                "cn",
                IndexType.EQUALITY,
                IndexType.SUBSTRING,
                IndexType.PRESENCE,
                IndexType.ORDERING,
                IndexType.APPROXIMATE),
            IndexSpec.of("member", IndexType.EQUALITY));
    BackendSettings settings =
        BackendSettings.defaults("userRoot", dir, StorageFixtures.BASE)
            .withIndexes(specs)
            .withSyncWrites(false);
    Random random = new Random(7);
    int changes = 0;
    try (Backend backend = Backend.open(settings, Schema.getDefaultStandardSchema())) {
      EntryContainer container = backend.containerFor(StorageFixtures.BASE);
      List<AttributeIndex> indexes = new ArrayList<>();
      for (IndexType type : IndexType.values()) {
        indexes.add(container.index("cn", type));
      }
      indexes.add(container.index("member", IndexType.EQUALITY));
      for (int round = 0; round < 1_000; round++) {
        Entry before = randomEntry(random);
        Entry after = random.nextBoolean() ? randomEntry(random) : changed(before, random);
        ValueChange.Diff diff = new ValueChange.Diff(before, after);
        for (AttributeIndex index : indexes) {
          Set<IndexKey> was = index.keysOf(before);
          Set<IndexKey> is = index.keysOf(after);
          KeyChange change = index.keyChange(diff.of(index.attribute()));
          assertThat(change.lost())
              .as("%s lost %s -> %s", index.name(), before, after)
              .isEqualTo(minus(was, is));
          if (index.indexType() == IndexType.EQUALITY && change.lost().isEmpty()) {
            // Pure additions to an equality index skip the kept values: gained keys may include
            // keys the entry already had (listing an ID twice is a no-op).
            assertThat(change.gained())
                .as("%s gained %s -> %s", index.name(), before, after)
                .containsAll(minus(is, was))
                .allSatisfy(k -> assertThat(is).contains(k));
          } else {
            assertThat(change.gained())
                .as("%s gained %s -> %s", index.name(), before, after)
                .isEqualTo(minus(is, was));
          }
          changes += change.lost().size() + change.gained().size();
        }
      }
    }
    assertThat(changes).isGreaterThan(300);
  }

  private static Set<IndexKey> minus(Set<IndexKey> a, Set<IndexKey> b) {
    Set<IndexKey> r = new HashSet<>(a);
    r.removeAll(b);
    return r;
  }

  private static Entry randomEntry(Random random) {
    Entry e = new Entry("cn=x,dc=example,dc=com");
    int values = random.nextInt(5);
    for (int i = 0; i < values; i++) {
      e.addAttribute(
          new Attribute(
              DESCRIPTIONS[random.nextInt(DESCRIPTIONS.length)],
              VALUES[random.nextInt(VALUES.length)]));
    }
    return e;
  }

  /** The entry with one value added or removed, as a modify would leave it. */
  private static Entry changed(Entry before, Random random) {
    Entry after = before.duplicate();
    String description = DESCRIPTIONS[random.nextInt(DESCRIPTIONS.length)];
    String value = VALUES[random.nextInt(VALUES.length)];
    if (random.nextBoolean()) {
      after.addAttribute(description, value);
    } else {
      after.removeAttributeValue(description, value);
    }
    return after;
  }
}
