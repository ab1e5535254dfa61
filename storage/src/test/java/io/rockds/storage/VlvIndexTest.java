package io.rockds.storage;

import static io.rockds.storage.StorageFixtures.PEOPLE;
import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.RDN;
import com.unboundid.ldap.sdk.SearchScope;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A VLV index over real RocksDB: kept in the sort order through adds, deletes, modifies and
 * renames, across block splits and merges, reopened from disk, rebuilt and verified. The expected
 * order is a TreeMap of (sn, ID) built beside it.
 */
class VlvIndexTest {
  @TempDir Path dir;

  static VlvSpec byName() throws Exception {
    return new VlvSpec(
        "byName",
        PEOPLE,
        SearchScope.ONE,
        Filter.create("(objectClass=person)"),
        VlvSpec.parseSortOrder("+sn"));
  }

  /** The expected order: sn (case folded), then entry ID. */
  static final class Expected {
    final TreeMap<String, Long> order = new TreeMap<>();

    void put(String sn, long id) {
      order.put(key(sn, id), id);
    }

    void remove(String sn, long id) {
      order.remove(key(sn, id));
    }

    static String key(String sn, long id) {
      return sn.toLowerCase() + "\u0000" + String.format("%012d", id);
    }

    long[] ids(int from, int count) {
      return order.values().stream().skip(from).limit(count).mapToLong(Long::longValue).toArray();
    }
  }

  static String sn(int i) {
    return String.format("Name%05d", (i * 7919) % 3001);
  }

  @Test
  void keepsTheSortOrderThroughWritesAndBlockSplits() throws Exception {
    Random random = new Random(42);
    try (Backend backend = StorageFixtures.open(dir, 4000)) {
      EntryContainer c = backend.containerFor(PEOPLE);
      VlvIndex index = backend.addVlvIndex(byName());
      assertThat(index.isTrusted()).isTrue(); // created over an empty container
      StorageFixtures.addTree(c);
      Expected expected = new Expected();
      int people = 2600; // several blocks of at most MAX_BLOCK keys
      for (int i = 0; i < people; i++) {
        c.add(StorageFixtures.person(i, sn(i)));
        expected.put(sn(i), c.idOf(dnOf(i)));
      }
      assertThat(index.size()).isEqualTo(people);
      assertThat(index.blockCount()).isGreaterThan(people / VlvIndex.MAX_BLOCK);
      assertThat(index.idsAt(0, people)).containsExactly(expected.ids(0, people));
      assertThat(index.idsAt(1234, 10)).containsExactly(expected.ids(1234, 10));
      assertThat(index.idsAt(people - 3, 10)).containsExactly(expected.ids(people - 3, 3));

      // Deletes (whole blocks emptied too), modifies of the sort attribute, renames out of scope.
      for (int n = 0; n < 1200; n++) {
        int i = random.nextInt(people);
        DN dn = dnOf(i);
        long id = c.idOf(dn);
        if (id < 0) {
          continue;
        }
        String was = c.get(id).getAttributeValue("sn");
        switch (n % 3) {
          case 0 -> {
            c.delete(dn);
            expected.remove(was, id);
          }
          case 1 -> {
            String now = "Moved" + n;
            c.modify(
                dn,
                e -> {
                  Entry changed = e.duplicate();
                  changed.setAttribute("sn", now);
                  return changed;
                });
            expected.remove(was, id);
            expected.put(now, id);
          }
          default -> {
            DN elsewhere = new DN(new RDN("uid", "gone." + i), StorageFixtures.BASE);
            c.rename(dn, elsewhere, e -> withDn(e, elsewhere));
            expected.remove(was, id);
          }
        }
      }
      int size = expected.order.size();
      assertThat(index.size()).isEqualTo(size);
      assertThat(index.idsAt(0, size)).containsExactly(expected.ids(0, size));
      assertThat(c.verifyVlvIndex(index)).isEmpty();

      // Assertion values: the first entry at or after the value.
      List<String> keys = new ArrayList<>(expected.order.keySet());
      String middle = keys.get(size / 2);
      String value = middle.substring(0, middle.indexOf('\u0000'));
      int position = index.positionOf(new ASN1OctetString(value.toUpperCase()));
      assertThat(keys.get(position)).startsWith(value + "\u0000");
      assertThat(position == 0 || !keys.get(position - 1).startsWith(value + "\u0000")).isTrue();
      assertThat(index.positionOf(new ASN1OctetString("zzz"))).isEqualTo(size);
    }
    // Reopened: the block counts come back from disk.
    try (Backend backend = StorageFixtures.open(dir, 4000)) {
      VlvIndex index = backend.addVlvIndex(byName());
      assertThat(index.isTrusted()).isTrue();
      EntryContainer c = backend.containerFor(PEOPLE);
      assertThat(c.verifyVlvIndex(index)).isEmpty();
    }
  }

  @Test
  void aNewIndexOverExistingEntriesIsUntrustedUntilRebuiltAndVerifyFindsDamage() throws Exception {
    try (Backend backend = StorageFixtures.open(dir, 4000)) {
      EntryContainer c = backend.containerFor(PEOPLE);
      StorageFixtures.addTree(c);
      for (int i = 0; i < 1500; i++) {
        c.add(StorageFixtures.person(i, sn(i)));
      }
      VlvIndex index = backend.addVlvIndex(byName());
      assertThat(index.isTrusted()).isFalse();
      assertThat(
              c.vlvIndexFor(
                  PEOPLE,
                  SearchScope.ONE,
                  Filter.create("(objectclass=PERSON)"),
                  List.of(new VlvIndex.RequestedKey("sn", "caseIgnoreOrderingMatch", false))))
          .isNull();
      c.rebuildVlvIndex(index);
      assertThat(index.isTrusted()).isTrue();
      assertThat(index.size()).isEqualTo(1500);
      assertThat(c.verifyVlvIndex(index)).isEmpty();
      assertThat(
              c.vlvIndexFor(
                  PEOPLE,
                  SearchScope.ONE,
                  Filter.create("(objectclass=PERSON)"),
                  List.of(new VlvIndex.RequestedKey("sn", "2.5.13.3", false))))
          .isSameAs(index);
      // Another sort order, scope or direction is not served.
      assertThat(
              c.vlvIndexFor(
                  PEOPLE,
                  SearchScope.SUB,
                  Filter.create("(objectclass=person)"),
                  List.of(new VlvIndex.RequestedKey("sn", "2.5.13.3", false))))
          .isNull();
      assertThat(
              c.vlvIndexFor(
                  PEOPLE,
                  SearchScope.ONE,
                  Filter.create("(objectclass=person)"),
                  List.of(new VlvIndex.RequestedKey("sn", "2.5.13.3", true))))
          .isNull();

      // Damage: an entry written behind the index's back.
      long id = c.idOf(dnOf(7));
      Entry changed = c.get(id).duplicate();
      changed.setAttribute("sn", "Tampered");
      try (org.rocksdb.WriteBatch batch = new org.rocksdb.WriteBatch()) {
        c.id2entry().put(batch, id, changed);
        backend.write(batch);
      }
      backend.invalidate(id);
      assertThat(c.verifyVlvIndex(index)).isNotEmpty();
      c.rebuildVlvIndex(index);
      assertThat(c.verifyVlvIndex(index)).isEmpty();
    }
  }

  static DN dnOf(int i) throws Exception {
    return new DN("uid=user." + i + "," + PEOPLE);
  }

  static Entry withDn(Entry e, DN dn) {
    Entry moved = e.duplicate();
    moved.setDN(dn);
    RDN rdn = dn.getRDN();
    moved.setAttribute(new Attribute(rdn.getAttributeNames()[0], rdn.getAttributeValues()[0]));
    return moved;
  }
}
