package io.rockds.benchmarks.security;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldif.LDIFWriter;
import io.rockds.layout.Instance;
import io.rockds.server.InstanceSetup;
import io.rockds.server.security.password.PasswordSchemeSettings;
import io.rockds.server.security.password.PasswordSchemes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Builds the authrate data set: {@code users} entries {@code uid=user.<n>,ou=People,<base>} whose
 * password is {@code password.<n>}, pre-hashed with one storage scheme, written as a RockDS
 * instance (offline, through the storage API) and/or as LDIF for {@code slapadd}.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.rockds.benchmarks.security.AuthRateData \
 *     100000 SSHA512 /tmp/authrate-ssha512 [/tmp/authrate-ssha512.ldif]
 * java -cp ... AuthRateData 100000 PBKDF2-SHA256 /tmp/authrate-pbkdf2
 * java -cp ... AuthRateData 100000 SSHA - /tmp/slapd-ssha.ldif      # LDIF only, for slapadd
 * </pre>
 *
 * Hashing is parallel: 100k PBKDF2-SHA256 hashes at 10,000 iterations cost minutes on one core.
 */
public final class AuthRateData {
  static final String BASE = "dc=example,dc=com";
  static final String PEOPLE = "ou=People," + BASE;
  static final String ROOT_PASSWORD = "authrate-root";

  private AuthRateData() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 3) {
      System.err.println("usage: AuthRateData <users> <scheme> <instanceDir|-> [ldifFile]");
      System.exit(2);
    }
    int users = Integer.parseInt(args[0]);
    PasswordSchemeSettings d = PasswordSchemeSettings.defaults();
    PasswordSchemes schemes =
        new PasswordSchemes(
            new PasswordSchemeSettings(
                args[1],
                d.disabledSchemes(),
                d.pbkdf2Iterations(),
                d.bcryptCost(),
                d.argon2Cost()));
    long start = System.nanoTime();
    List<Entry> entries = entries(users, schemes);
    System.out.printf(
        "hashed %d passwords with %s in %.1f s%n",
        users, args[1], (System.nanoTime() - start) / 1e9);
    if (!args[2].equals("-")) {
      Instance instance = new Instance(Path.of(args[2]));
      InstanceSetup.create(
          instance, InstanceSetup.loopback(new DN(BASE), 0, -1), ROOT_PASSWORD, entries);
      System.out.println("instance created in " + instance.root());
    }
    if (args.length > 3) {
      try (LDIFWriter writer = new LDIFWriter(args[3])) {
        for (Entry e : entries) {
          writer.writeEntry(e);
        }
      }
      System.out.println("LDIF written to " + args[3]);
    }
  }

  static List<Entry> entries(int users, PasswordSchemes schemes) {
    List<Entry> entries = new ArrayList<>(users + 2);
    entries.add(
        new Entry(
            BASE, new Attribute("objectClass", "top", "domain"), new Attribute("dc", "example")));
    entries.add(
        new Entry(
            PEOPLE,
            new Attribute("objectClass", "top", "organizationalUnit"),
            new Attribute("ou", "People")));
    Entry[] people = new Entry[users];
    IntStream.range(0, users)
        .parallel()
        .forEach(
            n -> {
              byte[] hash = schemes.encode(("password." + n).getBytes(StandardCharsets.UTF_8));
              Entry e = new Entry("uid=user." + n + "," + PEOPLE);
              e.addAttribute(
                  "objectClass", "top", "person", "organizationalPerson", "inetOrgPerson");
              e.addAttribute("uid", "user." + n);
              e.addAttribute("cn", "User " + n);
              e.addAttribute("sn", "User");
              e.addAttribute("userPassword", hash);
              people[n] = e;
            });
    entries.addAll(List.of(people));
    return entries;
  }
}
