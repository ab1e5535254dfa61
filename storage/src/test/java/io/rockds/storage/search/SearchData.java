package io.rockds.storage.search;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.storage.Backend;
import io.rockds.storage.BackendSettings;
import io.rockds.storage.EntryContainer;
import io.rockds.storage.IndexSpec;
import io.rockds.storage.IndexType;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;

/**
 * Test data in the shape of makeldif's example template: uid=user.N, mail user.N@example.com, cn
 * "First Last".
 */
final class SearchData {
  static final String BASE = "dc=example,dc=com";
  static final String PEOPLE = "ou=People," + BASE;
  static final String[] FIRST = {
    "Aaren", "Denice", "Aiden", "Camden", "Hayden", "Bob", "Carol", "Dennis", "Eve", "Frank",
    "Gustav", "Hélène", "Ida", "Jon", "Kim", "Lee", "Maud", "Ned", "Olga", "Pierre", "Quinn",
    "Rose", "Sam"
  };
  static final String[] LAST = {
    "Smith",
    "Lee",
    "Müller",
    "Garden",
    "Brown",
    "Jones",
    "Nguyen",
    "Walden",
    "Smyth",
    "O'Neil",
    "Zhang",
    "Ødegaard"
  };

  private SearchData() {}

  static Schema schema() {
    try {
      return Schema.getDefaultStandardSchema();
    } catch (LDAPException e) {
      throw new AssertionError(e);
    }
  }

  /** A backend with OpenDJ's default-style indexes plus ordering, approximate and presence ones. */
  static Backend open(Path dir, int entryLimit) throws LDAPException {
    return Backend.open(
        BackendSettings.defaults("userRoot", dir, dn(BASE))
            .withIndexEntryLimit(entryLimit)
            .withSyncWrites(false)
            .withIndexes(
                List.of(
                    IndexSpec.of("objectClass", IndexType.EQUALITY),
                    IndexSpec.of("uid", IndexType.EQUALITY),
                    IndexSpec.of("cn", IndexType.EQUALITY, IndexType.SUBSTRING),
                    new IndexSpec(
                        "sn",
                        EnumSet.of(IndexType.EQUALITY, IndexType.SUBSTRING, IndexType.APPROXIMATE),
                        null,
                        4),
                    IndexSpec.of("givenName", IndexType.EQUALITY, IndexType.ORDERING),
                    IndexSpec.of("mail", IndexType.EQUALITY, IndexType.SUBSTRING),
                    IndexSpec.of("telephoneNumber", IndexType.EQUALITY, IndexType.SUBSTRING),
                    IndexSpec.of("employeeNumber", IndexType.EQUALITY),
                    IndexSpec.of("changeNumber", IndexType.ORDERING),
                    IndexSpec.of("description", IndexType.PRESENCE))),
        schema());
  }

  static DN dn(String s) {
    try {
      return new DN(s);
    } catch (LDAPException e) {
      throw new AssertionError(e);
    }
  }

  static void addSuffix(EntryContainer c) throws LDAPException {
    c.add(
        new Entry(
            BASE, new Attribute("objectClass", "top", "domain"), new Attribute("dc", "example")));
    c.add(
        new Entry(
            PEOPLE,
            new Attribute("objectClass", "top", "organizationalUnit"),
            new Attribute("ou", "People")));
  }

  /**
   * Entry number {@code i}: deterministic, with a mix of present and absent optional attributes.
   */
  static Entry person(int i) {
    String first = FIRST[(i * 7 + 3) % FIRST.length];
    String last = LAST[(i * 5 + i / 13) % LAST.length];
    Entry e =
        new Entry(
            "uid=user." + i + "," + PEOPLE,
            new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
            new Attribute("uid", "user." + i),
            new Attribute("cn", first + " " + last),
            new Attribute("sn", last),
            new Attribute("givenName", first),
            new Attribute("mail", "user." + i + "@example.com"),
            new Attribute(
                "telephoneNumber", "+1 408 555 " + String.format("%04d", (i * 37) % 10000)),
            new Attribute("employeeNumber", Integer.toString(i % 250)),
            new Attribute("changeNumber", Integer.toString((i * 31) % 1001 - 500)));
    if (i % 3 == 0) {
      e.addAttribute("description", "person number " + i + (i % 2 == 0 ? " even" : " odd"));
    }
    if (i % 5 == 0) {
      e.addAttribute("description;lang-fr", "personne " + (i % 2 == 0 ? "paire" : "impaire"));
      e.addAttribute("cn;lang-fr", first + " le " + last);
    }
    if (i % 11 == 0) {
      e.addAttribute("l", i % 2 == 0 ? "Grenoble" : "Paris");
    }
    return e;
  }
}
