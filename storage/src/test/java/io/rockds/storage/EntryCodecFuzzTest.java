package io.rockds.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rocksdb.Env;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksMemEnv;

/**
 * {@link EntryCodec#decode} and {@link EntryCodec#record} of arbitrary bytes (a corrupt or foreign
 * {@code id2entry} value): an entry, or a record that visits without failing, or an {@link
 * IllegalArgumentException} / {@link IllegalStateException} naming the damage; never an
 * out-of-memory error from a corrupt length, never another exception type. Regression inputs:
 * {@code src/test/resources/io/rockds/storage/EntryCodecFuzzTestInputs/}. Fuzz for real with {@code
 * JAZZER_FUZZ=1}.
 */
class EntryCodecFuzzTest {
  private static final EntryCodec CODEC = codec();

  /**
   * A dictionary knowing a few descriptions, in an in-memory RocksDB that lives as long as the JVM.
   */
  private static EntryCodec codec() {
    RocksDB.loadLibrary();
    try {
      Options options =
          new Options().setCreateIfMissing(true).setEnv(new RocksMemEnv(Env.getDefault()));
      RocksDB db = RocksDB.open(options, "/entry-codec-fuzz");
      AttributeDictionary dictionary = new AttributeDictionary(db, db.getDefaultColumnFamily());
      for (String name : new String[] {"objectClass", "cn", "sn", "uid", "jpegPhoto;binary"}) {
        dictionary.idOf(name, null);
      }
      return new EntryCodec(dictionary);
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
  }

  @FuzzTest(maxDuration = "60s")
  void decodeGivesAnEntryOrACleanError(byte[] bytes) {
    try {
      assertThat(CODEC.decode(bytes).dn()).isNotNull();
    } catch (IllegalArgumentException | IllegalStateException expected) {
      assertThat(expected.getMessage()).isNotBlank();
    }
  }

  @Test
  void aCorruptValueLengthIsRefusedWithoutAllocatingIt() throws RocksDBException {
    byte[] good = CODEC.encode(new Entry("cn=x", new Attribute("cn", "x")), List.of(), null);
    // version, dn length 4, "cn=x", attribute count 1, id, value count 1, then the value length:
    // make it 2^31-1.
    byte[] bomb =
        new byte[] {
          good[0],
          4,
          'c',
          'n',
          '=',
          'x',
          1,
          good[7],
          1,
          (byte) 0xFF,
          (byte) 0xFF,
          (byte) 0xFF,
          (byte) 0xFF,
          0x07,
          'x'
        };
    assertThat(CODEC.decode(good).attributes()).containsExactly(new Attribute("cn", "x"));
    assertThatThrownBy(() -> CODEC.decode(bomb))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("corrupt entry");
    assertThatThrownBy(() -> CODEC.decode(Arrays.copyOf(good, 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("truncated");
  }

  @Test
  void everyTruncationOfARecordIsRefusedCleanlyBeforeItIsVisited() throws RocksDBException {
    Entry entry =
        new Entry(
            "uid=u,dc=example,dc=com",
            new Attribute("objectClass", "top", "person"),
            new Attribute("cn", "a", "b"),
            // A long value inline: a photo would be stored apart, outside the record.
            new Attribute("sn", new byte[300]));
    byte[] good = CODEC.encode(entry, List.of(), null);
    assertThat(visited(CODEC.record(good))).isEqualTo(entry.getAttributes().size());
    for (int length = 0; length < good.length; length++) {
      byte[] truncated = Arrays.copyOf(good, length);
      assertThatThrownBy(() -> CODEC.record(truncated))
          .as("truncated to %d bytes", length)
          .isInstanceOf(IllegalArgumentException.class);
    }
    byte[] bomb = Arrays.copyOf(good, good.length);
    bomb[bomb.length - 301] = (byte) 0x7F; // the long value's length claims more than is left
    assertThatThrownBy(() -> CODEC.record(bomb))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("corrupt entry");
  }

  @Test
  void everyTruncationOfARecordListingTheKeysOfItsValuesApartIsRefused() throws RocksDBException {
    Entry entry = new Entry("uid=u,dc=example,dc=com", new Attribute("cn", "a"));
    byte[][] keys = {new byte[32], new byte[32]};
    keys[1][0] = 1;
    int photo = CODEC.descriptionId("jpegPhoto;binary", null);
    byte[] good =
        CODEC.encode(entry, List.of(new StoredEntry.Apart(photo, "jpegPhoto;binary", keys)), null);
    assertThat(good[0]).isEqualTo(EntryCodec.VERSION_3);
    StoredEntry.Apart read = CODEC.decode(good).apart().get(0);
    assertThat(read.keys()).isDeepEqualTo(keys);
    assertThat(CODEC.record(good).apart().get(0).keys()).isDeepEqualTo(keys);
    for (int length = 0; length < good.length; length++) {
      byte[] truncated = Arrays.copyOf(good, length);
      assertThatThrownBy(() -> CODEC.decode(truncated))
          .as("truncated to %d bytes", length)
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> CODEC.record(truncated))
          .as("truncated to %d bytes", length)
          .isInstanceOf(IllegalArgumentException.class);
    }
    byte[] bomb = Arrays.copyOf(good, good.length);
    bomb[bomb.length - 33] = (byte) 0x7F; // the last key's length claims more than is left
    assertThatThrownBy(() -> CODEC.decode(bomb))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("corrupt entry");
  }

  /** Visits every attribute and value of {@code record}; the number of attributes. */
  private static int visited(EntryRecord record) {
    int[] attributes = {0};
    record.visit(
        new EntryRecord.Visitor() {
          @Override
          public boolean attribute(String description) {
            attributes[0]++;
            return true;
          }

          @Override
          public void value(byte[] bytes, int offset, int length) {
            assertThat(offset + length).isLessThanOrEqualTo(bytes.length);
          }
        });
    return attributes[0];
  }
}
