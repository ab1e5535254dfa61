package io.rockds.benchmarks.storage;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import io.rockds.storage.IndexSpec;
import io.rockds.storage.IndexType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Entries shaped like the OID 10M benchmark template ({@code
 * shared/seeds/oracle-oid-10m-benchmark.txt}, appendix B): inetOrgPerson with phones, postal
 * address, a description and a 1500-byte photo, deterministic for a given number. Also the default
 * indexes operators expect from OpenDJ.
 */
public final class OidTemplate {
  public static final String SUFFIX = "dc=us,dc=oracle,dc=com";
  private static final String[] FIRST = {
    "Aaron", "Abby", "Adam", "Alice", "Bob", "Carol", "Dave", "Eve", "Frank", "Grace", "Heidi",
    "Ivan", "Judy", "Mallory", "Niaj", "Olivia", "Peggy", "Rupert", "Sybil", "Trent", "Victor",
    "Walter", "Xavier", "Yolanda", "Zoe"
  };
  private static final String[] LAST = {
    "Smith",
    "Johnson",
    "Williams",
    "Brown",
    "Jones",
    "Garcia",
    "Miller",
    "Davis",
    "Rodriguez",
    "Martinez",
    "Hernandez",
    "Lopez",
    "Gonzalez",
    "Wilson",
    "Anderson",
    "Thomas",
    "Taylor",
    "Moore",
    "Jackson",
    "Martin",
    "Lee",
    "Perez",
    "Thompson",
    "White",
    "Harris"
  };
  private static final String[] CITIES = {
    "Austin", "Boston", "Chicago", "Denver", "Houston", "Miami", "Seattle"
  };
  private static final String[] STATES = {"TX", "MA", "IL", "CO", "TX", "FL", "WA"};
  private static final String ALPHANUMERIC =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

  /**
   * presence aci; equality entryUUID objectClass member uniqueMember uid; equality+substring cn
   * givenName mail sn telephoneNumber.
   */
  public static final List<IndexSpec> DEFAULT_INDEXES =
      List.of(
          IndexSpec.of("aci", IndexType.PRESENCE),
          IndexSpec.of("entryUUID", IndexType.EQUALITY),
          IndexSpec.of("objectClass", IndexType.EQUALITY),
          IndexSpec.of("member", IndexType.EQUALITY),
          IndexSpec.of("uniqueMember", IndexType.EQUALITY),
          IndexSpec.of("uid", IndexType.EQUALITY),
          IndexSpec.of("cn", IndexType.EQUALITY, IndexType.SUBSTRING),
          IndexSpec.of("givenName", IndexType.EQUALITY, IndexType.SUBSTRING),
          IndexSpec.of("mail", IndexType.EQUALITY, IndexType.SUBSTRING),
          IndexSpec.of("sn", IndexType.EQUALITY, IndexType.SUBSTRING),
          IndexSpec.of("telephoneNumber", IndexType.EQUALITY, IndexType.SUBSTRING));

  private OidTemplate() {}

  public static Entry suffix() {
    return new Entry(
        SUFFIX, new Attribute("objectClass", "top", "domain"), new Attribute("dc", "us"));
  }

  public static Entry people() {
    return new Entry(
        "ou=People," + SUFFIX,
        new Attribute("objectClass", "top", "organizationalUnit"),
        new Attribute("ou", "People"));
  }

  /** User number {@code n} (1-based), the same every time. */
  public static Entry user(long n) {
    SplittableRandom random = new SplittableRandom(mix(n));
    String first = FIRST[random.nextInt(FIRST.length)];
    String last = LAST[random.nextInt(LAST.length)];
    String cn = first + " " + last;
    String uid = "user." + n;
    int city = random.nextInt(CITIES.length);
    String street = digits(random, 5) + " " + LAST[random.nextInt(LAST.length)] + " Street";
    String postalCode = digits(random, 5);
    byte[] photo = new byte[1500];
    for (int i = 0; i < photo.length; i++) {
      photo[i] = (byte) ALPHANUMERIC.charAt(random.nextInt(ALPHANUMERIC.length()));
    }
    return new Entry(
        "uid=" + uid + ",ou=People," + SUFFIX,
        new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
        new Attribute("givenName", first),
        new Attribute("sn", last),
        new Attribute("cn", cn),
        new Attribute("initials", first.substring(0, 1) + last.substring(0, 1)),
        new Attribute("uid", uid),
        new Attribute("mail", uid + "@oracle.com"),
        new Attribute("userPassword", "welcome123"),
        new Attribute("telephoneNumber", phone(random)),
        new Attribute("homePhone", phone(random)),
        new Attribute("pager", phone(random)),
        new Attribute("mobile", phone(random)),
        new Attribute("employeeNumber", Long.toString(n)),
        new Attribute("street", street),
        new Attribute("l", CITIES[city]),
        new Attribute("st", STATES[city]),
        new Attribute("postalCode", postalCode),
        new Attribute(
            "postalAddress",
            cn + "$" + street + "$" + CITIES[city] + ", " + STATES[city] + " " + postalCode),
        new Attribute("description", "This is the description for " + cn + "."),
        new Attribute("photo", photo));
  }

  /**
   * SplitMix64's finalizer: seeds n·γ would give user n+1 the stream of user n shifted by one value
   * (near-identical photos that compress away), mixed seeds do not.
   */
  private static long mix(long n) {
    long z = n * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 31)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 29);
  }

  private static String phone(SplittableRandom random) {
    return "+1 " + digits(random, 3) + " " + digits(random, 3) + " " + digits(random, 4);
  }

  private static String digits(SplittableRandom random, int count) {
    StringBuilder sb = new StringBuilder(count);
    for (int i = 0; i < count; i++) {
      sb.append((char) ('0' + random.nextInt(10)));
    }
    return sb.toString();
  }

  /** The LDIF of the suffix, ou=People and users 1..count, generated as it is read. */
  public static java.io.InputStream ldif(long count) {
    return new java.io.InputStream() {
      private long next = -1;
      private byte[] buffer = new byte[0];
      private int position;

      @Override
      public int read() {
        if (position == buffer.length && !refill()) {
          return -1;
        }
        return buffer[position++] & 0xFF;
      }

      @Override
      public int read(byte[] b, int off, int len) {
        if (position == buffer.length && !refill()) {
          return -1;
        }
        int n = Math.min(len, buffer.length - position);
        System.arraycopy(buffer, position, b, off, n);
        position += n;
        return n;
      }

      private boolean refill() {
        if (next > count) {
          return false;
        }
        Entry e = next == -1 ? suffix() : next == 0 ? people() : user(next);
        next++;
        buffer = (e.toLDIFString(0) + "\n\n").getBytes(StandardCharsets.UTF_8);
        position = 0;
        return true;
      }
    };
  }
}
