package io.rockds.storage;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.schema.Schema;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** Backends and entries shared by the storage tests. */
public final class StorageFixtures {
  public static final DN BASE = dn("dc=example,dc=com");
  public static final DN PEOPLE = dn("ou=People,dc=example,dc=com");

  /** objectClass, uid and sn equality, sn substring, cn presence. */
  public static final List<IndexSpec> INDEXES =
      List.of(
          IndexSpec.of("objectClass", IndexType.EQUALITY), IndexSpec.of("uid", IndexType.EQUALITY),
          IndexSpec.of("sn", IndexType.EQUALITY, IndexType.SUBSTRING),
              IndexSpec.of("cn", IndexType.PRESENCE));

  private StorageFixtures() {}

  public static DN dn(String s) {
    try {
      return new DN(s);
    } catch (LDAPException e) {
      throw new AssertionError(e);
    }
  }

  public static BackendSettings settings(Path directory, int limit) {
    return BackendSettings.defaults("userRoot", directory, BASE)
        .withIndexEntryLimit(limit)
        .withIndexes(INDEXES)
        .withSyncWrites(false);
  }

  public static Backend open(Path directory, int limit) throws LDAPException {
    return Backend.open(settings(directory, limit), Schema.getDefaultStandardSchema());
  }

  public static Entry person(long i, String sn) {
    return new Entry(
        "uid=user." + i + ",ou=People,dc=example,dc=com",
        new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
        new Attribute("uid", "user." + i),
        new Attribute("cn", "User " + i),
        new Attribute("sn", sn));
  }

  /** A modify as the server makes it: the change names the values it reads. */
  public static Entry modify(EntryContainer c, DN dn, Modification... modifications)
      throws LDAPException {
    return c.modify(
        dn,
        Arrays.stream(modifications).map(Modification::getAttribute).toList(),
        current -> Entry.applyModifications(current, false, modifications));
  }

  /** Renames {@code from} to {@code to}, its RDN attribute taking the new RDN's value. */
  public static void rename(EntryContainer c, DN from, DN to) throws LDAPException {
    c.rename(
        from,
        to,
        current -> {
          Entry renamed = current.duplicate();
          renamed.setDN(to);
          renamed.setAttribute(
              to.getRDN().getAttributeNames()[0], to.getRDN().getAttributeValues()[0]);
          return renamed;
        });
  }

  /** The base entry, dc=example,dc=com. */
  public static Entry baseEntry() {
    return new Entry(
        "dc=example,dc=com",
        new Attribute("objectClass", "top", "domain"),
        new Attribute("dc", "example"));
  }

  /** Adds the base entry and ou=People. */
  public static void addTree(EntryContainer c) throws LDAPException {
    c.add(baseEntry());
    c.add(
        new Entry(
            "ou=People,dc=example,dc=com",
            new Attribute("objectClass", "top", "organizationalUnit"),
            new Attribute("ou", "People")));
  }
}
