package io.rockds.storage;

import static io.rockds.storage.StorageFixtures.BASE;
import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.storage.maintenance.IndexVerifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.rocksdb.RocksIterator;

/**
 * For random entries, adds, modifications and deletes, every indexed lookup (equality key,
 * presence, substring fragments up to the key length answered by a key-range scan) equals a full
 * scan of id2entry; an over-limit key reads as undefined and carries the exact count.
 */
class IndexedLookupPropertyTest {
  private static final String ALPHABET = "aAbBcé";

  @Provide
  Arbitrary<List<List<String>>> surnames() {
    Arbitrary<String> value =
        Arbitraries.strings().withChars(ALPHABET.toCharArray()).ofMinLength(1).ofMaxLength(5);
    return value.list().ofMinSize(1).ofMaxSize(2).list().ofMinSize(1).ofMaxSize(40);
  }

  @Property(tries = 12)
  void indexedLookupsEqualAFullScan(
      @ForAll("surnames") List<List<String>> values,
      @ForAll @IntRange(min = 0, max = 8) int limit,
      @ForAll long seed)
      throws Exception {
    Path dir = Files.createTempDirectory("rockds-property-");
    try (Backend backend =
        Backend.open(
            BackendSettings.defaults("userRoot", dir, BASE)
                .withSyncWrites(false)
                .withIndexEntryLimit(limit)
                .withIndexes(
                    List.of(
                        new IndexSpec(
                            "sn", Set.of(IndexType.EQUALITY, IndexType.SUBSTRING), null, 3),
                        IndexSpec.of("description", IndexType.PRESENCE))),
            Schema.getDefaultStandardSchema())) {
      EntryContainer c = backend.containerFor(BASE);
      StorageFixtures.addTree(c);
      java.util.Random random = new java.util.Random(seed);
      for (int i = 0; i < values.size(); i++) {
        c.add(entry(i, values.get(i), random.nextBoolean()));
      }
      for (int i = 0; i < values.size(); i++) {
        int action = random.nextInt(4);
        String dn = "uid=user." + i + ",ou=People,dc=example,dc=com";
        if (action == 0) {
          c.delete(StorageFixtures.dn(dn));
        } else if (action == 1) {
          List<String> replacement = values.get(random.nextInt(values.size()));
          boolean described = random.nextBoolean();
          c.modify(
              StorageFixtures.dn(dn),
              e ->
                  entry(
                      Long.parseLong(e.getAttributeValue("uid").substring(5)),
                      replacement,
                      described));
        }
      }
      Map<Long, Entry> scan = fullScan(c);
      assertLookups(c, scan);
      assertThat(new IndexVerifier(c).verifyAll().mismatches()).isEmpty();
    } finally {
      try (var paths = Files.walk(dir)) {
        paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /**
   * A user with the surnames {@code sn}, those equal under sn's matching rule kept once: the server
   * refuses an entry whose values repeat (attributeOrValueExists), and storage counts an over-limit
   * key's entries on that guarantee.
   */
  private static Entry entry(long i, List<String> sn, boolean described) {
    Map<String, String> distinct = new java.util.LinkedHashMap<>();
    sn.forEach(v -> distinct.putIfAbsent(v.toLowerCase(Locale.ROOT), v));
    Entry e =
        new Entry(
            "uid=user." + i + ",ou=People,dc=example,dc=com",
            new Attribute("objectClass", "top", "person", "uidObject"),
            new Attribute("uid", "user." + i),
            new Attribute("cn", "c"),
            new Attribute("sn", distinct.values()));
    if (described) {
      e.addAttribute("description", "d");
    }
    return e;
  }

  private static Map<Long, Entry> fullScan(EntryContainer c) {
    Map<Long, Entry> entries = new HashMap<>();
    try (RocksIterator it = c.id2entry().newIterator()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        entries.put(
            Id2Entry.idOf(it.key()),
            c.id2entry().decode(Id2Entry.idOf(it.key()), it.value(), null));
      }
    }
    return entries;
  }

  private static void assertLookups(EntryContainer c, Map<Long, Entry> scan) throws Exception {
    AttributeIndex equality = c.index("sn", IndexType.EQUALITY);
    AttributeIndex substring = c.index("sn", IndexType.SUBSTRING);
    AttributeIndex presence = c.index("description", IndexType.PRESENCE);
    Set<String> normalized = new TreeSet<>();
    for (Entry e : scan.values()) {
      for (String v :
          e.getAttributeValues("sn") == null ? new String[0] : e.getAttributeValues("sn")) {
        normalized.add(v.toLowerCase(Locale.ROOT));
      }
    }
    for (String v : normalized) {
      assertKey(
          c,
          equality,
          v.getBytes(StandardCharsets.UTF_8),
          matching(scan, e -> hasSn(e, s -> s.equals(v))));
    }
    assertKey(
        c,
        presence,
        AttributeIndex.PRESENCE_KEY,
        matching(scan, e -> e.hasAttribute("description")));
    for (String fragment : fragments(normalized)) {
      byte[] f = fragment.getBytes(StandardCharsets.UTF_8);
      IdSet read = substring.readRange(f, Bytes.prefixEnd(f), 0);
      if (read.isDefined()) {
        assertThat(read.toArray())
            .as("substring *%s*", fragment)
            .containsExactly(matching(scan, e -> hasSn(e, s -> s.contains(fragment))).toArray());
      }
    }
  }

  private static void assertKey(EntryContainer c, AttributeIndex index, byte[] key, IdSet expected)
      throws Exception {
    IdSet read = index.read(key);
    if (read.isDefined()) {
      assertThat(read.toArray())
          .as("%s %s", index.name(), new String(key, StandardCharsets.UTF_8))
          .containsExactly(expected.toArray());
    } else {
      assertThat(c.state().overLimitCount(index.name(), key)).isEqualTo(expected.size());
    }
  }

  private static boolean hasSn(Entry e, Predicate<String> test) {
    String[] values = e.getAttributeValues("sn");
    if (values == null) {
      return false;
    }
    for (String v : values) {
      if (test.test(v.toLowerCase(Locale.ROOT))) {
        return true;
      }
    }
    return false;
  }

  private static IdSet matching(Map<Long, Entry> scan, Predicate<Entry> test) {
    IdSet.Builder ids = new IdSet.Builder();
    scan.forEach(
        (id, e) -> {
          if (test.test(e)) {
            ids.add(id);
          }
        });
    return ids.build();
  }

  /** Every substring of the values of at most 3 bytes, plus one that occurs nowhere. */
  private static List<String> fragments(Set<String> values) {
    Set<String> fragments = new TreeSet<>();
    for (String v : values) {
      for (int i = 0; i < v.length(); i++) {
        for (int len = 1; i + len <= v.length(); len++) {
          String fragment = v.substring(i, i + len);
          // Keys are cut to 3 bytes: a longer fragment is answered by several keys, not one range.
          if (fragment.getBytes(StandardCharsets.UTF_8).length <= 3) {
            fragments.add(fragment);
          }
        }
      }
    }
    List<String> all = new ArrayList<>(fragments);
    all.add("zz");
    return all;
  }
}
