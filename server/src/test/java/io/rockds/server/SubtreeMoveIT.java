package io.rockds.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.DeleteRequest;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.SubtreeDeleteRequestControl;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A modify DN that moves a subtree of 10,000 entries under a new superior, in one storage batch:
 * afterwards every entry is found under its new DN and none under the old one; then a subtree
 * delete removes them all, again in one batch. Most of its minute is the setup: the instance import
 * commits (and syncs) one entry at a time.
 */
class SubtreeMoveIT {
  private static final int SIZE = 10_000;
  private static final String BASE = TestServer.BASE;

  @TempDir Path dir;

  @Test
  void tenThousandEntries_moveAndDeleteAsOne() throws Exception {
    List<Entry> entries = new ArrayList<>(TestServer.baseEntries());
    entries.add(
        new Entry("dn: ou=Dept,ou=People," + BASE, "objectClass: organizationalUnit", "ou: Dept"));
    for (int i = 1; i < SIZE; i++) {
      entries.add(
          new Entry(
              "dn: uid=u" + i + ",ou=Dept,ou=People," + BASE,
              "objectClass: account",
              "uid: u" + i));
    }
    try (TestServer server = TestServer.start(dir, entries);
        LDAPConnection root = server.rootConnection()) {
      long start = System.nanoTime();
      root.modifyDN("ou=Dept,ou=People," + BASE, "ou=Division", true, "ou=Groups," + BASE);
      System.out.printf(
          "moved %d entries in %d ms%n", SIZE, (System.nanoTime() - start) / 1_000_000);
      String moved = "ou=Division,ou=Groups," + BASE;
      assertThat(root.search(moved, SearchScope.SUB, "(objectClass=*)", "1.1").getEntryCount())
          .isEqualTo(SIZE);
      assertThat(root.getEntry("ou=Dept,ou=People," + BASE)).isNull();
      assertThat(root.getEntry("uid=u9999," + moved, "entryDN").getAttributeValue("entryDN"))
          .isEqualTo("uid=u9999," + moved);
      assertThat(
              root.getEntry("ou=People," + BASE, "numSubordinates")
                  .getAttributeValue("numSubordinates"))
          .isEqualTo("0");
      assertThat(root.getEntry(moved, "numSubordinates").getAttributeValue("numSubordinates"))
          .isEqualTo(Integer.toString(SIZE - 1));

      DeleteRequest delete = new DeleteRequest(moved);
      delete.addControl(new SubtreeDeleteRequestControl(true));
      root.delete(delete);
      assertThat(root.getEntry("uid=u1," + moved)).isNull();
      assertThat(
              root.getEntry("ou=Groups," + BASE, "hasSubordinates")
                  .getAttributeValue("hasSubordinates"))
          .isEqualTo("FALSE");
    }
  }
}
