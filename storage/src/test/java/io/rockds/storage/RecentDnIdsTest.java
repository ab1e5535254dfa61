package io.rockds.storage;

import static io.rockds.storage.StorageFixtures.dn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.schema.Schema;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read of an entry by DN takes the ID of a DN read lately ({@link RecentDnIds}: a search sent it,
 * a bind read it) without reading {@code dn2id}, and trusts it only when the record read names that
 * DN: a delete, a rename, a subtree rename or a new entry under an old name never makes it answer
 * with the wrong entry or with one that is gone.
 */
class RecentDnIdsTest {
  private static final AttributeProjection CN =
      new AttributeProjection(d -> d.equalsIgnoreCase("cn"));
  private static final AttributeProjection PASSWORD =
      new AttributeProjection(d -> d.equalsIgnoreCase("userPassword"));

  @TempDir Path dir;

  private static Entry user(String dn, String password) {
    return new Entry(
        dn,
        new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
        new Attribute("uid", dn.substring(4, dn.indexOf(','))),
        new Attribute("cn", "A User"),
        new Attribute("sn", "User"),
        new Attribute("description", "x".repeat(300)),
        new Attribute("userPassword", password));
  }

  @Test
  void aDnSentLatelyIsReadWithoutItsDn2idRecord() throws Exception {
    BackendSettings settings = StorageFixtures.settings(dir.resolve("db"), 4000);
    String sent = "uid=user.150,ou=People,dc=example,dc=com";
    String notSent = "uid=user.20,ou=People,dc=example,dc=com";
    long id;
    try (Backend backend = Backend.open(settings, Schema.getDefaultStandardSchema())) {
      EntryContainer c = backend.containerFor(StorageFixtures.BASE);
      ScaleMechanicsTest.importUsers(c, dir.resolve("work"), 300);
      id = c.idOf(dn(sent));
    }
    // Reopened: a cold cache, where a memory-only read of a record on disk fails.
    try (Backend backend = Backend.open(settings, Schema.getDefaultStandardSchema())) {
      EntryContainer c = backend.containerFor(StorageFixtures.BASE);
      assertThat(c.withDnOnly(id, ReadFrom.ANYWHERE).getDN())
          .as("a search sends it")
          .isEqualTo(sent);

      Entry read = c.peekWithoutValuesApart(dn(sent), CN, ReadFrom.MEMORY);
      assertThat(read.getDN()).isEqualTo(sent);
      assertThat(read.getAttributeValue("cn")).isEqualTo("User 150");
      assertThatThrownBy(() -> c.peekWithoutValuesApart(dn(notSent), CN, ReadFrom.MEMORY))
          .as("a DN not read lately: its dn2id record is on disk")
          .isInstanceOfSatisfying(
              StorageException.class,
              e -> assertThat(e.kind()).isEqualTo(StorageException.Kind.NOT_IN_MEMORY));
      assertThat(
              c.peekWithoutValuesApart(dn(notSent), CN, ReadFrom.ANYWHERE).getAttributeValue("cn"))
          .isEqualTo("User 20");
    }
  }

  @Test
  void aDnMovedAwayOrDeletedIsNeverAnsweredFromWhatWasRemembered() throws Exception {
    try (Backend backend = StorageFixtures.open(dir.resolve("db"), 4000)) {
      EntryContainer c = backend.containerFor(StorageFixtures.BASE);
      StorageFixtures.addTree(c);
      DN first = dn("uid=first,ou=People,dc=example,dc=com");
      DN renamed = dn("uid=renamed,ou=People,dc=example,dc=com");
      c.add(user(first.toString(), "first-password"));
      remember(c, first);

      c.rename(first, renamed, current -> moved(current, renamed));
      assertThat(read(c, first)).as("renamed away").isNull();
      assertThat(read(c, renamed)).isEqualTo("first-password");

      remember(c, renamed);
      c.delete(renamed);
      c.add(user(first.toString(), "second-password"));
      assertThat(read(c, renamed)).as("deleted").isNull();
      assertThat(read(c, first)).as("a new entry of an old name").isEqualTo("second-password");

      DN unit = dn("ou=Unit,ou=People,dc=example,dc=com");
      DN child = dn("uid=child,ou=Unit,ou=People,dc=example,dc=com");
      DN movedUnit = dn("ou=Moved,ou=People,dc=example,dc=com");
      c.add(
          new Entry(
              unit.toString(),
              new Attribute("objectClass", "top", "organizationalUnit"),
              new Attribute("ou", "Unit")));
      c.add(user(child.toString(), "child-password"));
      remember(c, child);
      c.rename(unit, movedUnit, current -> moved(current, movedUnit));
      assertThat(read(c, child)).as("its parent renamed").isNull();
      assertThat(read(c, dn("uid=child,ou=Moved,ou=People,dc=example,dc=com")))
          .isEqualTo("child-password");
    }
  }

  /** What a search returning only the DN of {@code dn} does. */
  private static void remember(EntryContainer c, DN dn) throws Exception {
    assertThat(c.withDnOnly(c.idOf(dn), ReadFrom.ANYWHERE).getDN()).isEqualTo(dn.toString());
  }

  /** The password of the entry named {@code dn} as a bind reads it, or null when there is none. */
  private static String read(EntryContainer c, DN dn) throws Exception {
    Entry entry = c.peekWithoutValuesApart(dn, PASSWORD, ReadFrom.ANYWHERE);
    if (entry == null) {
      return null;
    }
    assertThat(entry.getParsedDN()).isEqualTo(dn);
    return entry.getAttributeValue("userPassword");
  }

  private static Entry moved(Entry current, DN to) {
    Entry moved = current.duplicate();
    moved.setDN(to);
    moved.setAttribute(to.getRDN().getAttributeNames()[0], to.getRDN().getAttributeValues()[0]);
    return moved;
  }
}
