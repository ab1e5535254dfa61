package io.rockds.benchmarks.storage;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The index keys of synthetic {@code inetOrgPerson} entries, deterministic per entry ID, mixing the
 * key shapes a directory sees:
 *
 * <ul>
 *   <li>{@code objectClass}: 4 values shared by every entry (over the limit after 4000 entries);
 *   <li>{@code uid} and {@code mail} equality: unique per entry ({@code user.N});
 *   <li>{@code sn} equality: one of 1000 surnames; {@code cn} equality: given name + surname;
 *   <li>{@code sn}, {@code cn}, {@code mail} substrings of length 6 (every suffix cut to 6, as
 *       OpenDJ does): from shared ({@code @examp}) to unique ({@code 12345@}).
 * </ul>
 *
 * Keys are {@code <index>:<normalized value>} in ASCII, never containing 0x00.
 */
final class SyntheticDirectory {

  static final int SUBSTRING_LENGTH = 6;

  private static final String[] OBJECT_CLASSES = {
    "top", "person", "organizationalperson", "inetorgperson"
  };
  private static final String[] SYLLABLES = {
    "an", "ber", "cor", "dal", "ev", "far", "gil", "hol", "is", "jen",
    "kin", "lam", "mor", "nel", "ost", "par", "quin", "ros", "sten", "tur"
  };

  private final String[] surnames = names(1000, 3);
  private final String[] givenNames = names(200, 2);

  /** The distinct index keys of entry {@code id}. */
  List<byte[]> indexKeys(long id) {
    SplittableRandom random = new SplittableRandom(id);
    String sn = surnames[random.nextInt(surnames.length)];
    String cn = givenNames[random.nextInt(givenNames.length)] + " " + sn;
    String uid = "user." + id;
    String mail = uid + "@example.com";
    List<byte[]> keys = new ArrayList<>(64);
    for (String objectClass : OBJECT_CLASSES) {
      keys.add(key("objectClass", objectClass));
    }
    keys.add(key("uid", uid));
    keys.add(key("mail", mail));
    keys.add(key("sn", sn));
    keys.add(key("cn", cn));
    addSubstrings(keys, "sn.sub", sn);
    addSubstrings(keys, "cn.sub", cn);
    addSubstrings(keys, "mail.sub", mail);
    return keys;
  }

  private static void addSubstrings(List<byte[]> keys, String index, String value) {
    Set<String> substrings = new LinkedHashSet<>();
    for (int i = 0; i < value.length(); i++) {
      substrings.add(value.substring(i, Math.min(value.length(), i + SUBSTRING_LENGTH)));
    }
    for (String substring : substrings) {
      keys.add(key(index, substring));
    }
  }

  /** An index key as the layouts store it; fixtures use it to name a known key. */
  static byte[] key(String index, String normalizedValue) {
    return (index + ":" + normalizedValue).getBytes(StandardCharsets.US_ASCII);
  }

  /** {@code count} distinct names made of base-20 digits spelled as syllables. */
  private static String[] names(int count, int syllables) {
    String[] names = new String[count];
    for (int i = 0; i < count; i++) {
      StringBuilder name = new StringBuilder();
      for (int digit = 0, rest = i; digit < syllables; digit++, rest /= SYLLABLES.length) {
        name.append(SYLLABLES[rest % SYLLABLES.length]);
      }
      names[i] = name.toString();
    }
    return names;
  }
}
