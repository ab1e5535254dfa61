package io.rockds.storage;

import static io.rockds.storage.StorageFixtures.BASE;
import static io.rockds.storage.StorageFixtures.PEOPLE;
import static io.rockds.storage.StorageFixtures.addTree;
import static io.rockds.storage.StorageFixtures.dn;
import static io.rockds.storage.StorageFixtures.person;
import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.storage.maintenance.IndexVerifier;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SubtreeRenameTest {
  private static final int ENTRIES = 10_000;

  @TempDir Path dir;

  @Test
  void renamingASubtreeOfTenThousandEntriesMovesEveryDnAndKeepsIndexes() throws Exception {
    try (Backend backend = StorageFixtures.open(dir.resolve("db"), 4000)) {
      EntryContainer c = backend.containerFor(BASE);
      addTree(c);
      c.add(
          new Entry(
              "ou=Groups,dc=example,dc=com",
              new Attribute("objectClass", "top", "organizationalUnit"),
              new Attribute("ou", "Groups")));
      for (int i = 0; i < ENTRIES; i++) {
        c.add(person(i, "Sn" + (i % 100)));
      }
      DN moved = dn("ou=Staff,ou=Groups,dc=example,dc=com");
      c.rename(
          PEOPLE,
          moved,
          e -> {
            e.setDN(moved);
            e.setAttribute("ou", "Staff");
            return e;
          });

      assertThat(c.scopeIds(PEOPLE, SearchScope.SUB, 0).isEmpty()).isTrue();
      assertThat(c.scopeIds(moved, SearchScope.ONE, 0).size()).isEqualTo(ENTRIES);
      assertThat(c.get(dn("uid=user.9999,ou=Staff,ou=Groups,dc=example,dc=com")).getDN())
          .isEqualTo("uid=user.9999,ou=Staff,ou=Groups,dc=example,dc=com");
      assertThat(c.childCount(c.idOf(dn("ou=Groups,dc=example,dc=com")))).isEqualTo(1);
      assertThat(c.childCount(c.idOf(BASE))).isEqualTo(1);
      assertThat(c.childCount(c.idOf(moved))).isEqualTo(ENTRIES);
      assertThat(new IndexVerifier(c).verifyAll().mismatches()).isEmpty();
    }
  }
}
