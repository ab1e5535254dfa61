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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksIterator;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;

/**
 * Photos and certificates stored apart ({@link Id2Values#isApart}): the entry's record holds only
 * the small attributes, reads of the DN or of named attributes never read the photo, and every
 * value comes back byte for byte through each read and write.
 */
class BinaryValuesApartTest {
  private static final int PHOTO_BYTES = 1500;
  private static final DN USER = dn("uid=photo,ou=People,dc=example,dc=com");

  /** Entry ID, description id, SHA-256 digest. */
  private static final int DIGEST_KEY_BYTES = 8 + 4 + 32;

  @TempDir Path dir;
  private Schema schema;
  private Backend backend;
  private EntryContainer c;

  @BeforeEach
  void open() throws LDAPException {
    schema = Schema.getDefaultStandardSchema();
    backend = Backend.open(StorageFixtures.settings(dir.resolve("db"), 4000), schema);
    c = backend.containerFor(BASE);
    addTree(c);
  }

  @AfterEach
  void close() {
    backend.close();
  }

  private static byte[] random(int bytes, int seed) {
    byte[] value = new byte[bytes];
    new Random(seed).nextBytes(value);
    return value;
  }

  private static Entry person(DN dn) {
    return new Entry(
        dn,
        new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
        new Attribute("uid", dn.getRDN().getAttributeValues()[0]),
        new Attribute("cn", "Photo Person"),
        new Attribute("sn", "Person"),
        new Attribute("jpegPhoto", random(PHOTO_BYTES, 1)),
        new Attribute("userCertificate;binary", random(300, 2), random(300, 3)),
        new Attribute("photo", random(200, 4)));
  }

  /** Each attribute's values' bytes by description, comparable with equals whatever the order. */
  private static TreeMap<String, Set<String>> exactly(Entry entry) {
    TreeMap<String, Set<String>> out = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    for (Attribute a : entry.getAttributes()) {
      Set<String> values = new HashSet<>();
      for (ASN1OctetString value : a.getRawValues()) {
        values.add(Arrays.toString(value.getValue()));
      }
      out.put(a.getName(), values);
    }
    return out;
  }

  /** The records entry {@code id} has in {@code id2values}: key length to value. */
  private static List<byte[][]> valueRecords(EntryContainer c, long id) {
    List<byte[][]> records = new ArrayList<>();
    try (RocksIterator it = c.id2entry().values().newIterator()) {
      for (it.seek(Bytes.longKey(id)); it.isValid() && Id2Values.idOf(it.key()) == id; it.next()) {
        records.add(new byte[][] {it.key(), it.value()});
      }
    }
    return records;
  }

  private static byte[] record(EntryContainer c, long id) throws Exception {
    Tree id2entry = c.id2entry();
    return id2entry.db.get(id2entry.handle, Bytes.longKey(id));
  }

  private static void assertClean(EntryContainer c) throws LDAPException {
    assertThat(new IndexVerifier(c).verifyAll().mismatches()).isEmpty();
  }

  @Test
  void theRecordHoldsTheSmallAttributesAndEachBinaryValueIsOneRecordKeyedByItsDigest()
      throws Exception {
    Entry added = person(USER);
    c.add(added);
    long id = c.idOf(USER);
    assertThat(record(c, id).length).isLessThan(300);
    List<byte[][]> records = valueRecords(c, id);
    assertThat(records).hasSize(4);
    assertThat(records).allSatisfy(r -> assertThat(r[0]).hasSize(DIGEST_KEY_BYTES));
    assertThat(records.stream().mapToInt(r -> r[1].length).sum()).isEqualTo(PHOTO_BYTES + 800);
    assertThat(exactly(c.get(USER))).isEqualTo(exactly(added));
    assertClean(c);
  }

  @Test
  void dnOnlyProjectedAndFilterReadsNeverReadThePhoto() throws Exception {
    c.add(person(USER));
    long id = c.idOf(USER);
    backend.invalidate(id);
    Statistics statistics = backend.statistics();
    long bytesBefore = statistics.getTickerCount(TickerType.BYTES_READ);
    long seeksBefore = statistics.getTickerCount(TickerType.NUMBER_DB_SEEK);

    assertThat(c.withDnOnly(id, ReadFrom.ANYWHERE).getDN()).isEqualTo(USER.toString());
    Entry projected =
        c.peek(id, new AttributeProjection(d -> d.equalsIgnoreCase("cn") || d.equals("sn")));
    assertThat(projected.getAttributeValue("cn")).isEqualTo("Photo Person");
    Entry forMatching = c.getForMatching(id);
    assertThat(FilterEvaluator.forSchema(schema).matches(Filter.create("(uid=photo)"), forMatching))
        .isTrue();

    // Each read got the record alone: fewer bytes than the photo, no seek into id2values.
    assertThat(statistics.getTickerCount(TickerType.BYTES_READ) - bytesBefore)
        .isLessThan(3L * PHOTO_BYTES / 2);
    assertThat(statistics.getTickerCount(TickerType.NUMBER_DB_SEEK) - seeksBefore).isZero();

    // A read of the whole entry gets each value apart by the key its record lists: one point
    // read each, no seek.
    backend.invalidate(id);
    long keysBefore = statistics.getTickerCount(TickerType.NUMBER_KEYS_READ);
    assertThat(c.get(id).getAttributeValueBytes("jpegPhoto")).hasSize(PHOTO_BYTES);
    assertThat(statistics.getTickerCount(TickerType.NUMBER_KEYS_READ) - keysBefore)
        .isEqualTo(1 + 4);
    assertThat(c.id2entry().record(id, ReadFrom.ANYWHERE).apart()).hasSize(3);
    assertThat(statistics.getTickerCount(TickerType.NUMBER_DB_SEEK) - seeksBefore).isZero();
  }

  /** The keys the record of entry {@code id} lists, as "description id/key" strings. */
  private static Set<String> listedKeys(EntryContainer c, long id) throws Exception {
    Set<String> keys = new HashSet<>();
    c.backend().invalidate(id);
    for (StoredEntry.Apart a : ((StoredEntry) c.getForMatching(id)).apart()) {
      for (byte[] key : a.keys() == null ? new byte[0][] : a.keys()) {
        keys.add(a.descriptionId() + "/" + Arrays.toString(key));
      }
    }
    return keys;
  }

  /** The keys entry {@code id} has in {@code id2values}, as {@link #listedKeys} writes them. */
  private static Set<String> storedKeys(EntryContainer c, long id) {
    Set<String> keys = new HashSet<>();
    for (byte[][] r : valueRecords(c, id)) {
      keys.add(
          Id2Values.descriptionIdOf(r[0])
              + "/"
              + Arrays.toString(Arrays.copyOfRange(r[0], 12, r[0].length)));
    }
    return keys;
  }

  @Test
  void modifyCompareAndEqualityFiltersSeeExactBytes() throws Exception {
    c.add(person(USER));
    long id = c.idOf(USER);
    byte[] photo = random(PHOTO_BYTES, 1);
    byte[] newPhoto = random(PHOTO_BYTES, 5);
    byte[] certificate = random(300, 6);
    modify(
        c,
        USER,
        new Modification(ModificationType.ADD, "userCertificate;binary", certificate),
        new Modification(ModificationType.DELETE, "userCertificate;binary", random(300, 2)),
        new Modification(ModificationType.REPLACE, "jpegPhoto", newPhoto));
    Entry after = c.get(USER);
    assertThat(after.getAttributeValueBytes("jpegPhoto")).isEqualTo(newPhoto);
    assertThat(List.of(after.getAttribute("userCertificate;binary").getValueByteArrays()))
        .containsExactlyInAnyOrder(random(300, 3), certificate);
    assertThat(valueRecords(c, id)).hasSize(4);
    assertThat(listedKeys(c, id)).isEqualTo(storedKeys(c, id));

    FilterEvaluator evaluator = FilterEvaluator.forSchema(schema);
    Entry forMatching = c.getForMatching(USER);
    assertThat(((StoredEntry) forMatching).lacksValues()).isTrue();
    assertThat(evaluator.compare(forMatching, "photo", random(200, 4))).isTrue();
    assertThat(evaluator.compare(forMatching, "photo", random(200, 5))).isFalse();
    assertThat(evaluator.matches(Filter.createEqualityFilter("photo", random(200, 4)), forMatching))
        .isTrue();
    assertThat(evaluator.matches(Filter.createEqualityFilter("photo", photo), forMatching))
        .isFalse();
    assertThat(evaluator.matches(Filter.createPresenceFilter("jpegPhoto"), forMatching)).isTrue();
    assertClean(c);

    modify(c, USER, new Modification(ModificationType.DELETE, "jpegPhoto"));
    assertThat(c.get(USER).hasAttribute("jpegPhoto")).isFalse();
    assertThat(valueRecords(c, id)).hasSize(3);
    assertThat(listedKeys(c, id)).isEqualTo(storedKeys(c, id));
    assertClean(c);
  }

  @Test
  void renameDeleteExportAndImportKeepTheBytes() throws Exception {
    Entry added = person(USER);
    c.add(added);
    long id = c.idOf(USER);
    DN renamed = dn("uid=renamed,ou=People,dc=example,dc=com");
    StorageFixtures.rename(c, USER, renamed);
    Entry expected = added.duplicate();
    expected.setDN(renamed);
    expected.setAttribute("uid", "renamed");
    assertThat(exactly(c.get(renamed))).isEqualTo(exactly(expected));
    assertThat(valueRecords(c, id)).hasSize(4);
    assertThat(listedKeys(c, id)).hasSize(4).isEqualTo(storedKeys(c, id));

    ByteArrayOutputStream ldif = new ByteArrayOutputStream();
    new LdifExporter(backend).export(ldif, EntryFilter.ALL, 0, n -> {});
    try (Backend imported =
            Backend.open(StorageFixtures.settings(dir.resolve("imported"), 4000), schema);
        LDIFReader reader = new LDIFReader(new ByteArrayInputStream(ldif.toByteArray()))) {
      EntryContainer target = imported.containerFor(BASE);
      try (BulkLoad load = target.startBulkLoad(dir.resolve("work"))) {
        Entry entry;
        while ((entry = reader.readEntry()) != null) {
          load.add(load.prepare(entry));
        }
        load.finish();
      }
      assertThat(exactly(target.get(renamed))).isEqualTo(exactly(expected));
      long importedId = target.idOf(renamed);
      assertThat(record(target, importedId).length).isLessThan(300);
      assertThat(valueRecords(target, importedId)).hasSize(4);
      assertThat(listedKeys(target, importedId)).isEqualTo(storedKeys(target, importedId));
      assertClean(target);
    }

    c.delete(renamed);
    assertThat(valueRecords(c, id)).isEmpty();
    assertClean(c);
  }

  @Test
  void aPhotoWrittenInlineBeforeReadsAndMovesApartAtItsNextWrite() throws Exception {
    Entry added = person(USER);
    c.add(added);
    long id = c.idOf(USER);
    LegacyRecords.rewriteInline(backend, c, added);
    assertThat(record(c, id).length).isGreaterThan(PHOTO_BYTES);

    assertThat(exactly(c.get(USER))).isEqualTo(exactly(added));
    assertThat(
            FilterEvaluator.forSchema(schema)
                .compare(c.getForMatching(USER), "photo", random(200, 4)))
        .isTrue();
    assertClean(c);

    modify(c, USER, new Modification(ModificationType.REPLACE, "cn", "Moved Apart"));
    assertThat(record(c, id).length).isLessThan(400);
    assertThat(valueRecords(c, id)).hasSize(4);
    assertThat(listedKeys(c, id)).isEqualTo(storedKeys(c, id));
    Entry expected = added.duplicate();
    expected.setAttribute("cn", "Moved Apart");
    assertThat(exactly(c.get(USER))).isEqualTo(exactly(expected));
    assertClean(c);
  }

  @Test
  void aValueSharingTheDigestOfAnotherIsNeitherMatchedNorOverwritten() throws Exception {
    c.add(person(USER));
    long id = c.idOf(USER);
    // A SHA-256 collision cannot be computed: plant one, another value under the key of this one.
    byte[] asked = random(200, 7);
    Id2Values values = c.id2entry().values();
    int photoId =
        ((StoredEntry) c.getForMatching(USER))
            .apart().stream()
                .filter(a -> a.description().equals("photo"))
                .findFirst()
                .orElseThrow()
                .descriptionId();
    values.db.put(
        values.handle, Id2Values.key(id, photoId, values.valueKey("photo", asked)), random(200, 8));
    backend.invalidate(id);

    FilterEvaluator evaluator = FilterEvaluator.forSchema(schema);
    assertThat(evaluator.compare(c.getForMatching(USER), "photo", asked)).isFalse();
    assertThat(
            evaluator.matches(Filter.createEqualityFilter("photo", asked), c.getForMatching(USER)))
        .isFalse();
    assertThatThrownBy(
            () -> modify(c, USER, new Modification(ModificationType.ADD, "photo", asked)))
        .isInstanceOfSatisfying(
            LDAPException.class,
            e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.UNWILLING_TO_PERFORM));
    assertThat(List.of(c.get(USER).getAttribute("photo").getValueByteArrays()))
        .as("the planted value is under no key the record lists")
        .containsExactly(random(200, 4));
  }

  @Test
  void aRecordListingNoKeysReadsItsValuesByTheirKeyRange() throws Exception {
    Entry added = person(USER);
    c.add(added);
    long id = c.idOf(USER);
    LegacyRecords.rewriteWithoutKeys(backend, c, added);
    assertThat(record(c, id)[0]).isEqualTo(EntryCodec.VERSION_2);
    assertThat(listedKeys(c, id)).isEmpty();
    Statistics statistics = backend.statistics();
    long seeksBefore = statistics.getTickerCount(TickerType.NUMBER_DB_SEEK);

    assertThat(exactly(c.get(USER))).isEqualTo(exactly(added));
    assertThat(statistics.getTickerCount(TickerType.NUMBER_DB_SEEK) - seeksBefore).isEqualTo(3);
    assertThat(c.id2entry().record(id, ReadFrom.ANYWHERE).apart()).hasSize(3);

    byte[] certificate = random(300, 9);
    modify(
        c,
        USER,
        new Modification(ModificationType.ADD, "userCertificate;binary", certificate),
        new Modification(ModificationType.REPLACE, "cn", "Still Range Read"));
    Entry expected = added.duplicate();
    expected.addAttribute("userCertificate;binary", certificate);
    expected.setAttribute("cn", "Still Range Read");
    assertThat(exactly(c.get(USER))).isEqualTo(exactly(expected));
    assertThat(valueRecords(c, id)).hasSize(5);
    assertClean(c);
  }

  /**
   * A reader of whole entries while a writer replaces the photo and the cn together: each read sees
   * a photo and a cn written together, never a record with the values of another write (the record
   * lists keys the writer deletes meanwhile: the read falls back to one snapshot).
   */
  @Test
  void wholeReadsDuringPhotoReplacementsNeverMixTwoWrites() throws Exception {
    c.add(person(USER));
    int writes = 300;
    AtomicBoolean done = new AtomicBoolean();
    AtomicInteger reads = new AtomicInteger();
    AtomicReference<String> torn = new AtomicReference<>();
    Thread reader =
        new Thread(
            () -> {
              try {
                while (!done.get() && reads.incrementAndGet() < 1_000_000) {
                  Entry read = c.get(USER);
                  String cn = read.getAttributeValue("cn");
                  int n = cn.startsWith("write ") ? Integer.parseInt(cn.substring(6)) : -1;
                  byte[] expected = n < 0 ? random(PHOTO_BYTES, 1) : random(PHOTO_BYTES, 100 + n);
                  if (!Arrays.equals(read.getAttributeValueBytes("jpegPhoto"), expected)) {
                    torn.compareAndSet(null, "read of " + cn + " has another write's photo");
                  }
                }
              } catch (LDAPException e) {
                torn.compareAndSet(null, e.toString());
              }
            });
    reader.start();
    for (int n = 0; n < writes; n++) {
      modify(
          c,
          USER,
          new Modification(ModificationType.REPLACE, "cn", "write " + n),
          new Modification(ModificationType.REPLACE, "jpegPhoto", random(PHOTO_BYTES, 100 + n)));
    }
    done.set(true);
    reader.join();
    assertThat(torn.get()).isNull();
    assertThat(reads.get()).isGreaterThan(1);
    assertThat(c.get(USER).getAttributeValue("cn")).isEqualTo("write " + (writes - 1));
  }
}
