package io.rockds.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ConfigStore} persistence through real files: round trip, archives, atomic save, load
 * errors.
 */
class ConfigStoreTest {
  @TempDir Path dir;

  private Path file() {
    return dir.resolve("config").resolve("config.ldif");
  }

  private static Entry entry(String dn, String... attributeLines) throws Exception {
    String[] lines = new String[attributeLines.length + 1];
    lines[0] = "dn: " + dn;
    System.arraycopy(attributeLines, 0, lines, 1, attributeLines.length);
    return new Entry(lines);
  }

  @Test
  void savedEntriesLoadBackParentsFirstWithTheirValues() throws Exception {
    // Children given before their parent: the file must still list parents first.
    ConfigStore store =
        ConfigStore.create(
            file(),
            List.of(
                entry("cn=b,cn=parent,cn=config", "objectClass: top", "cn: b", "ds-cfg-x: 2"),
                entry("cn=a,cn=parent,cn=config", "objectClass: top", "cn: a", "ds-cfg-x: 1"),
                entry("cn=parent,cn=config", "objectClass: top", "cn: parent"),
                entry("cn=config", "objectClass: top", "cn: config")));
    store.save();

    ConfigStore loaded = ConfigStore.load(file());
    assertThat(loaded.all())
        .extracting(Entry::getDN)
        .containsExactly(
            "cn=config",
            "cn=parent,cn=config",
            "cn=a,cn=parent,cn=config",
            "cn=b,cn=parent,cn=config");
    assertThat(loaded.get(new DN("CN=A, cn=Parent,cn=config")).getAttributeValue("ds-cfg-x"))
        .isEqualTo("1");
    assertThat(loaded.children(new DN("cn=parent,cn=config")))
        .extracting(Entry::getDN)
        .containsExactlyInAnyOrder("cn=a,cn=parent,cn=config", "cn=b,cn=parent,cn=config");
    assertThat(loaded.children(new DN("cn=config")))
        .extracting(Entry::getDN)
        .containsExactly("cn=parent,cn=config");
  }

  @Test
  void everySaveArchivesThePreviousFileAndLeavesNoTemporaryFile() throws Exception {
    ConfigStore store =
        ConfigStore.create(
            file(), List.of(entry("cn=config", "objectClass: top", "cn: config", "ds-cfg-v: 1")));
    store.save();
    Path archives = file().resolveSibling("archived-configs");
    assertThat(archives).doesNotExist(); // nothing to archive on the first save
    String first = Files.readString(file(), StandardCharsets.UTF_8);

    store.put(entry("cn=config", "objectClass: top", "cn: config", "ds-cfg-v: 2"));
    store.save();

    try (Stream<Path> archived = Files.list(archives)) {
      List<Path> files = archived.toList();
      assertThat(files).hasSize(1);
      assertThat(files.get(0).getFileName().toString())
          .matches("config-\\d{8}T\\d{6}\\.\\d{3}Z\\.ldif");
      assertThat(Files.readString(files.get(0), StandardCharsets.UTF_8)).isEqualTo(first);
    }
    assertThat(ConfigStore.load(file()).get(new DN("cn=config")).getAttributeValue("ds-cfg-v"))
        .isEqualTo("2");
    try (Stream<Path> siblings = Files.list(file().getParent())) {
      assertThat(siblings.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("config.ldif", "archived-configs");
    }
  }

  @Test
  void changesToACopyStayOutOfTheStoreUntilReplaceWith() throws Exception {
    ConfigStore store =
        ConfigStore.create(
            file(), List.of(entry("cn=config", "objectClass: top", "cn: config", "ds-cfg-v: 1")));
    ConfigStore copy = store.copy();
    copy.put(entry("cn=config", "objectClass: top", "cn: config", "ds-cfg-v: 2"));
    copy.put(entry("cn=new,cn=config", "objectClass: top", "cn: new"));
    assertThat(store.get(new DN("cn=config")).getAttributeValue("ds-cfg-v")).isEqualTo("1");
    assertThat(store.get(new DN("cn=new,cn=config"))).isNull();

    store.replaceWith(copy);
    assertThat(store.get(new DN("cn=config")).getAttributeValue("ds-cfg-v")).isEqualTo("2");
    assertThat(store.remove(new DN("cn=new,cn=config"))).isTrue();
    assertThat(store.remove(new DN("cn=new,cn=config"))).isFalse();
    // Entries handed out are copies: changing one changes nothing stored.
    store.get(new DN("cn=config")).setAttribute("ds-cfg-v", "3");
    assertThat(store.get(new DN("cn=config")).getAttributeValue("ds-cfg-v")).isEqualTo("2");
  }

  @Test
  void aMissingFileIsRefusedWithAHint() {
    assertThatThrownBy(() -> ConfigStore.load(file()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("does not exist")
        .hasMessageContaining("bin/setup");
  }

  @Test
  void anEntryGivenTwiceIsRefusedWithTheLineOfTheSecond() throws Exception {
    Files.createDirectories(file().getParent());
    Files.writeString(
        file(),
        "dn: cn=config\nobjectClass: top\ncn: config\n\n# again\ndn: CN=Config\nobjectClass: top\ncn: config\n");
    assertThatThrownBy(() -> ConfigStore.load(file()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("line 6")
        .hasMessageContaining("appears twice");
  }

  @Test
  void locationPointsAtTheAttributeLineOfALoadedEntryAndAtTheFileForANewOne() throws Exception {
    Files.createDirectories(file().getParent());
    Files.writeString(
        file(), "# header\ndn: cn=config\nobjectClass: top\ncn: config\nds-cfg-size: 5\n");
    ConfigStore store = ConfigStore.load(file());
    assertThat(store.location(new DN("cn=config"), "ds-cfg-size")).isEqualTo(file() + ": line 5: ");
    assertThat(store.location(new DN("cn=config"), null)).isEqualTo(file() + ": line 2: ");
    store.put(entry("cn=other,cn=config", "objectClass: top", "cn: other"));
    assertThat(store.location(new DN("cn=other,cn=config"), "cn")).isEqualTo(file() + ": ");
  }
}
