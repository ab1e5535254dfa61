package io.rockds.storage;

import static io.rockds.storage.StorageFixtures.BASE;
import static io.rockds.storage.StorageFixtures.addTree;
import static io.rockds.storage.StorageFixtures.dn;
import static io.rockds.storage.StorageFixtures.modify;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.schema.Schema;
import com.unboundid.ldif.LDIFReader;
import io.rockds.storage.exporter.LdifExporter;
import io.rockds.storage.maintenance.IndexVerifier;
import io.rockds.storage.matching.FilterEvaluator;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksIterator;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;

/**
 * The members of groups stored apart ({@link Id2Values}): what a change of one member touches in a
 * group of 20,000, counted by RocksDB's statistics (keys written, point reads, iterator steps), and
 * that every reader still sees every value.
 */
class ValuesApartTest {
  private static final int MEMBERS = 20_000;
  private static final DN GROUP = dn("cn=big,dc=example,dc=com");

  @TempDir Path dir;
  private Schema schema;
  private Backend backend;
  private EntryContainer c;

  @BeforeEach
  void open() throws LDAPException {
    schema = Schema.getDefaultStandardSchema();
    List<IndexSpec> indexes = new ArrayList<>(StorageFixtures.INDEXES);
    indexes.add(IndexSpec.of("member", IndexType.EQUALITY, IndexType.PRESENCE));
    backend =
        Backend.open(
            StorageFixtures.settings(dir.resolve("db"), 4000).withIndexes(indexes), schema);
    c = backend.containerFor(BASE);
    addTree(c);
  }

  @AfterEach
  void close() {
    backend.close();
  }

  private static String member(int i) {
    return "uid=m" + i + ",ou=People,dc=example,dc=com";
  }

  private static Entry group(DN dn, int members) {
    List<String> values = new ArrayList<>(members);
    for (int i = 0; i < members; i++) {
      values.add(member(i));
    }
    return new Entry(
        dn,
        new Attribute("objectClass", "top", "groupOfNames"),
        new Attribute("cn", dn.getRDN().getAttributeValues()[0]),
        new Attribute("member", values));
  }

  private static Modification add(String... values) {
    return new Modification(ModificationType.ADD, "member", values);
  }

  private static Modification delete(String... values) {
    return new Modification(ModificationType.DELETE, "member", values);
  }

  /** Keys written, point reads and iterator steps (seeks and nexts) so far. */
  private record Touched(long written, long read, long steps) {
    static Touched of(Statistics s) {
      return new Touched(
          s.getTickerCount(TickerType.NUMBER_KEYS_WRITTEN),
          s.getTickerCount(TickerType.NUMBER_KEYS_READ),
          s.getTickerCount(TickerType.NUMBER_DB_SEEK)
              + s.getTickerCount(TickerType.NUMBER_DB_NEXT));
    }

    Touched since(Touched start) {
      return new Touched(written - start.written, read - start.read, steps - start.steps);
    }
  }

  private static Set<String> members(Entry entry) {
    Attribute a = entry.getAttribute("member");
    return a == null ? Set.of() : new HashSet<>(Arrays.asList(a.getValues()));
  }

  private static void assertClean(EntryContainer c) throws LDAPException {
    assertThat(new IndexVerifier(c).verifyAll().mismatches()).isEmpty();
  }

  private static long valueRecords(EntryContainer c, long id) {
    long n = 0;
    try (RocksIterator it = c.id2entry().values().newIterator()) {
      for (it.seek(Bytes.longKey(id)); it.isValid() && Id2Values.idOf(it.key()) == id; it.next()) {
        n++;
      }
    }
    return n;
  }

  @Test
  void addingOrRemovingOneMemberOfALargeGroupTouchesABoundedNumberOfKeys() throws Exception {
    c.add(group(GROUP, MEMBERS));
    modify(c, GROUP, add(member(MEMBERS + 1))); // warm-up: descriptions known, blocks cached
    Statistics statistics = backend.statistics();

    Touched start = Touched.of(statistics);
    modify(c, GROUP, add(member(MEMBERS)));
    Touched added = Touched.of(statistics).since(start);
    start = Touched.of(statistics);
    modify(c, GROUP, delete(member(MEMBERS)));
    Touched removed = Touched.of(statistics).since(start);

    // The record, the value and the member equality key: nothing grows with the group.
    assertThat(added.written()).as("keys written adding one member").isLessThanOrEqualTo(4);
    assertThat(removed.written()).as("keys written removing one member").isLessThanOrEqualTo(4);
    assertThat(added.read()).as("point reads adding one member").isLessThanOrEqualTo(8);
    assertThat(removed.read()).as("point reads removing one member").isLessThanOrEqualTo(8);
    assertThat(added.steps()).as("iterator steps adding one member").isLessThanOrEqualTo(4);
    assertThat(removed.steps()).as("iterator steps removing one member").isLessThanOrEqualTo(4);

    // What the bounds tell apart: a modify shown the whole entry reads every member.
    start = Touched.of(statistics);
    c.modify(GROUP, current -> Entry.applyModifications(current, false, add(member(MEMBERS + 2))));
    assertThat(Touched.of(statistics).since(start).steps()).isGreaterThan(MEMBERS);

    Set<String> expected = members(group(GROUP, MEMBERS));
    expected.add(member(MEMBERS + 1));
    expected.add(member(MEMBERS + 2));
    assertThat(members(c.get(GROUP))).isEqualTo(expected);
    assertThat(
            c.index("member", IndexType.EQUALITY).idsEqualTo(new ASN1OctetString(member(MEMBERS))))
        .isEqualTo(IdSet.empty());
    assertClean(c);
  }

  @Test
  void modifyKeepsTheRulesOfLdapModify() throws Exception {
    c.add(group(GROUP, 1_000));
    long id = c.idOf(GROUP);
    AttributeIndex index = c.index("member", IndexType.EQUALITY);

    // The SDK's applyModifications compares values as case-ignore strings (the server's
    // ModificationApplier uses the schema's rules); the view holds the stored form it needs.
    assertThatThrownBy(() -> modify(c, GROUP, add(member(7))))
        .isInstanceOfSatisfying(
            LDAPException.class,
            e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.ATTRIBUTE_OR_VALUE_EXISTS));
    assertThatThrownBy(() -> modify(c, GROUP, delete(member(5_000))))
        .isInstanceOfSatisfying(
            LDAPException.class,
            e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.NO_SUCH_ATTRIBUTE));
    assertThat(members(c.get(GROUP))).hasSize(1_000);

    modify(c, GROUP, delete(member(1), member(2)), add(member(1_001)));
    assertThat(members(c.get(GROUP)))
        .hasSize(999)
        .contains(member(1_001))
        .doesNotContain(member(1));

    modify(c, GROUP, new Modification(ModificationType.REPLACE, "member", member(3), "uid=x"));
    assertThat(members(c.get(GROUP))).containsExactlyInAnyOrder(member(3), "uid=x");
    assertThat(valueRecords(c, id)).isEqualTo(2);
    assertThat(index.idsEqualTo(new ASN1OctetString(member(4)))).isEqualTo(IdSet.empty());
    assertThat(index.idsEqualTo(new ASN1OctetString("uid=x"))).isEqualTo(IdSet.of(id));
    assertClean(c);

    // Deleting every value by name removes the attribute, as deleting the attribute does.
    modify(c, GROUP, delete(member(3), "UID=X"));
    assertThat(c.get(GROUP).hasAttribute("member")).isFalse();
    assertThat(valueRecords(c, id)).isZero();
    assertClean(c);

    modify(c, GROUP, add(member(9)));
    modify(c, GROUP, new Modification(ModificationType.DELETE, "member"));
    assertThat(c.get(GROUP).hasAttribute("member")).isFalse();
    assertThat(valueRecords(c, id)).isZero();
    assertThat(c.index("member", IndexType.PRESENCE).read(AttributeIndex.PRESENCE_KEY))
        .isEqualTo(IdSet.empty());
    assertClean(c);
  }

  @Test
  void everyReaderSeesEveryValueInAStableOrder() throws Exception {
    List<String> values = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      values.add(member(i));
    }
    Collections.shuffle(values, new Random(11));
    c.add(
        new Entry(
            GROUP,
            new Attribute("objectClass", "top", "groupOfNames"),
            new Attribute("cn", "big"),
            new Attribute("member", values),
            new Attribute("description", "a group")));
    Entry whole = c.get(GROUP);
    assertThat(members(whole)).isEqualTo(new HashSet<>(values));
    assertThat(c.get(GROUP).getAttribute("member").getValues())
        .containsExactly(whole.getAttribute("member").getValues());

    // A projection without member reads none of them; one with member reads them all.
    long id = c.idOf(GROUP);
    backend.invalidate(id);
    Entry description = c.peek(id, new AttributeProjection(d -> d.equals("description")));
    assertThat(description.hasAttribute("member")).isFalse();
    assertThat(members(c.complete(description))).hasSize(2_000);
    Entry projected = c.peek(id, new AttributeProjection(d -> d.equals("member")));
    assertThat(members(projected)).hasSize(2_000);

    ByteArrayOutputStream ldif = new ByteArrayOutputStream();
    new LdifExporter(backend).export(ldif, EntryFilter.ALL, 0, n -> {});
    try (LDIFReader reader = new LDIFReader(new ByteArrayInputStream(ldif.toByteArray()))) {
      Entry exported;
      while ((exported = reader.readEntry()) != null) {
        if (exported.getParsedDN().equals(GROUP)) {
          assertThat(members(exported)).isEqualTo(new HashSet<>(values));
        }
      }
    }
    assertClean(c);
  }

  @Test
  void compareAndEqualityFiltersOnACachedGroupArePointReads() throws Exception {
    c.add(group(GROUP, MEMBERS));
    FilterEvaluator evaluator = FilterEvaluator.forSchema(schema);
    Entry cached = c.getForMatching(GROUP);
    assertThat(((StoredEntry) cached).lacksValues()).isTrue();
    assertThat(((StoredEntry) cached).footprint()).isLessThan(4096);

    Touched start = Touched.of(backend.statistics());
    assertThat(evaluator.compare(cached, "member", bytes(member(17)))).isTrue();
    assertThat(evaluator.compare(cached, "member", bytes("UID=M17,OU=People,dc=example,dc=com")))
        .isTrue();
    assertThat(evaluator.compare(cached, "member", bytes(member(MEMBERS)))).isFalse();
    assertThat(evaluator.matches(Filter.create("(member=" + member(MEMBERS - 1) + ")"), cached))
        .isTrue();
    assertThat(evaluator.matches(Filter.create("(!(member=uid=nobody))"), cached)).isTrue();
    assertThat(evaluator.matches(Filter.create("(member=*)"), cached)).isTrue();
    Touched tested = Touched.of(backend.statistics()).since(start);
    assertThat(tested.read()).as("point reads").isLessThanOrEqualTo(5);
    assertThat(tested.steps()).as("iterator steps").isZero();

    // Other kinds of component read the values.
    assertThat(
            evaluator.matches(
                Filter.create("(member:distinguishedNameMatch:=" + member(3) + ")"), cached))
        .isTrue();
    assertThat(members(((StoredEntry) cached).withValuesApart())).hasSize(MEMBERS);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void renameAndDeleteMoveTheValuesWithTheEntry() throws Exception {
    DN groups = dn("ou=Groups,dc=example,dc=com");
    c.add(
        new Entry(
            groups,
            new Attribute("objectClass", "top", "organizationalUnit"),
            new Attribute("ou", "Groups")));
    DN inside = dn("cn=inside,ou=Groups,dc=example,dc=com");
    c.add(group(inside, 500));
    c.add(group(GROUP, 500));
    long id = c.idOf(GROUP);

    StorageFixtures.rename(c, GROUP, dn("cn=bigger,dc=example,dc=com"));
    assertThat(members(c.get(dn("cn=bigger,dc=example,dc=com")))).hasSize(500);
    // A descendant moved with its parent keeps its values (its record alone is rewritten).
    DN moved = dn("ou=Teams,dc=example,dc=com");
    StorageFixtures.rename(c, groups, moved);
    assertThat(members(c.get(dn("cn=inside,ou=Teams,dc=example,dc=com")))).hasSize(500);
    assertClean(c);

    c.delete(dn("cn=bigger,dc=example,dc=com"));
    assertThat(valueRecords(c, id)).isZero();
    long insideId = c.idOf(dn("cn=inside,ou=Teams,dc=example,dc=com"));
    c.deleteSubtree(moved);
    assertThat(valueRecords(c, insideId)).isZero();
    assertClean(c);
  }

  @Test
  void aGroupWrittenBeforeValuesWereStoredApartReadsAndMovesApartAtItsNextWrite() throws Exception {
    c.add(group(GROUP, 50));
    long id = c.idOf(GROUP);
    // Rewrite it as a database written before kept it: format 1, the members in the record.
    Entry old = c.get(GROUP);
    LegacyRecords.rewriteInline(backend, c, old);

    assertThat(members(c.get(GROUP))).isEqualTo(members(old));
    assertThat(
            FilterEvaluator.forSchema(schema)
                .compare(c.getForMatching(GROUP), "member", bytes(member(3))))
        .isTrue();
    assertClean(c);

    modify(c, GROUP, add(member(50)));
    assertThat(valueRecords(c, id)).isEqualTo(51);
    assertThat(members(c.get(GROUP))).hasSize(51);
    assertThat(((StoredEntry) c.getForMatching(GROUP)).lacksValues()).isTrue();
    assertClean(c);
  }

  @Test
  void importWritesTheValuesApart() throws Exception {
    try (BulkLoad load = c.startBulkLoad(dir.resolve("work"))) {
      load.add(load.prepare(StorageFixtures.baseEntry()));
      Entry group = group(GROUP, 5_000);
      // A repeat under the matching rule is kept once.
      group.addAttribute("member", "uid=m1, ou=People,dc=example,dc=com");
      load.add(load.prepare(group));
      load.finish();
    }
    long id = c.idOf(GROUP);
    assertThat(valueRecords(c, id)).isEqualTo(5_000);
    assertThat(members(c.get(GROUP))).hasSize(5_000);
    assertThat(((StoredEntry) c.getForMatching(GROUP)).lacksValues()).isTrue();
    assertClean(c);
  }

  @Test
  void verifyFindsValuesOfNoEntry() throws Exception {
    c.add(group(GROUP, 3));
    Tree values = c.id2entry().values();
    values.db.put(values.handle, Id2Values.key(999, 1, bytes("uid=ghost")), bytes("uid=ghost"));
    assertThat(new IndexVerifier(c).verifyEntryTrees().mismatches())
        .extracting(m -> m.kind(), m -> m.id())
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                io.rockds.storage.maintenance.Mismatch.Kind.ORPHAN_VALUE, 999L));
  }
}
