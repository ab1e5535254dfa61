package io.rockds.tools.backendstat;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.storage.AttributeIndex;
import io.rockds.storage.Dn2Id;
import io.rockds.storage.Tree;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import picocli.CommandLine.Option;

/**
 * The record selection shared by {@code dump-index} and {@code dump-raw-db}: key bounds (typed and
 * turned into keys as the tree would, or hex), value size bounds, stats only.
 */
final class DumpOptions {
  /** Prints one selected record. */
  @FunctionalInterface
  interface RecordPrinter {
    void print(byte[] key, byte[] value);
  }

  /** What a dump saw, printed after the records. */
  record Totals(long records, long keyBytes, long valueBytes) {
    String describe() {
      return "Total Records: "
          + records
          + "\n"
          + "Total / Average Key Size: "
          + keyBytes
          + " bytes / "
          + average(keyBytes)
          + " bytes\n"
          + "Total / Average Data Size: "
          + valueBytes
          + " bytes / "
          + average(valueBytes)
          + " bytes";
    }

    private long average(long bytes) {
      return records == 0 ? 0 : Math.round((double) bytes / records);
    }
  }

  @Option(
      names = {"-q", "--statsOnly"},
      description = "Print only the totals, not the records.")
  boolean statsOnly;

  @Option(
      names = {"-k", "--minKeyValue"},
      paramLabel = "<value>",
      description =
          "Only keys >= this value, normalized as the tree builds its keys (an attribute value, a DN, an ID).")
  String minKey;

  @Option(
      names = {"-K", "--maxKeyValue"},
      paramLabel = "<value>",
      description = "Only keys <= this value.")
  String maxKey;

  @Option(
      names = {"-x", "--minHexKeyValue"},
      paramLabel = "<hex>",
      description = "Only keys >= these bytes.")
  String minHexKey;

  @Option(
      names = {"-X", "--maxHexKeyValue"},
      paramLabel = "<hex>",
      description = "Only keys <= these bytes.")
  String maxHexKey;

  @Option(
      names = {"-s", "--minDataSize"},
      paramLabel = "<bytes>",
      description = "Only values of at least this size.")
  int minDataSize = 0;

  @Option(
      names = {"-S", "--maxDataSize"},
      paramLabel = "<bytes>",
      description = "Only values of at most this size.")
  int maxDataSize = Integer.MAX_VALUE;

  /** Visits every record of {@code tree} within the bounds, in key order, and totals them. */
  Totals scan(Tree tree, RecordPrinter printer) throws LDAPException {
    byte[] lower = bound(tree, minKey, minHexKey, "-k", "-x");
    byte[] upper = bound(tree, maxKey, maxHexKey, "-K", "-X");
    long records = 0;
    long keyBytes = 0;
    long valueBytes = 0;
    try (org.rocksdb.RocksIterator it = tree.newIterator()) {
      if (lower == null) {
        it.seekToFirst();
      } else {
        it.seek(lower);
      }
      for (; it.isValid(); it.next()) {
        byte[] key = it.key();
        if (upper != null && Arrays.compareUnsigned(key, upper) > 0) {
          break;
        }
        byte[] value = it.value();
        if (value.length < minDataSize || value.length > maxDataSize) {
          continue;
        }
        records++;
        keyBytes += key.length;
        valueBytes += value.length;
        if (!statsOnly) {
          printer.print(key, value);
        }
      }
    }
    return new Totals(records, keyBytes, valueBytes);
  }

  private static byte[] bound(
      Tree tree, String typed, String hex, String typedOption, String hexOption)
      throws LDAPException {
    if (typed != null && hex != null) {
      throw new IllegalArgumentException(
          typedOption + " and " + hexOption + " cannot be used together");
    }
    if (hex != null) {
      try {
        return HexFormat.of().parseHex(hex.replace(" ", ""));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            hexOption + " " + hex + ": not hexadecimal (expected e.g. 6c6565)");
      }
    }
    return typed == null ? null : keyOf(tree, typed, typedOption);
  }

  /** The key {@code tree} stores for a typed value, as OpenDJ's {@code Tree.generateKey}. */
  private static byte[] keyOf(Tree tree, String value, String option) throws LDAPException {
    if (tree instanceof AttributeIndex index) {
      byte[] key = index.normalize(new ASN1OctetString(value));
      if (key == null) {
        throw new IllegalArgumentException(
            option + " " + value + ": not a valid value of " + index.attribute());
      }
      return key;
    }
    if (tree instanceof Dn2Id) {
      return io.rockds.storage.DnKeys.key(new DN(value));
    }
    if (value.chars().allMatch(Character::isDigit) && !value.isEmpty()) {
      return ByteBuffer.allocate(Long.BYTES)
          .putLong(Long.parseLong(value))
          .array(); // an entry ID key
    }
    return value.getBytes(StandardCharsets.UTF_8);
  }
}
