package io.rockds.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import io.rockds.config.model.ConfigModel;
import io.rockds.config.model.EntryValidator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The model's validation at start (a hand-edited file) and on every change (the editor). */
class ConfigValidationTest {
  @TempDir Path dir;

  private ConfigStore initialStore() throws Exception {
    return InitialStores.saved(dir, 0, -1);
  }

  @Test
  void initialConfigurationIsValidAndHasTheDefaultLogsAndPasswordObjects() throws Exception {
    ServerConfig config = ServerConfig.read(initialStore());
    assertThat(config.logPublishers())
        .extracting(LogPublisherConfig::name, LogPublisherConfig::logFile, LogPublisherConfig::kind)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "File-Based Access Logger", "logs/access", LogPublisherConfig.Kind.ACCESS),
            org.assertj.core.groups.Tuple.tuple(
                "File-Based Error Logger", "logs/errors", LogPublisherConfig.Kind.ERROR));
    ConfigStore store = initialStore();
    assertThat(
            store
                .get(ConfigDns.passwordPolicy("Default Password Policy"))
                .getAttributeValue("ds-cfg-default-password-storage-scheme"))
        .isEqualTo("cn=Salted SHA-512,cn=Password Storage Schemes,cn=config");
    assertThat(store.children(ConfigDns.PASSWORD_STORAGE_SCHEMES))
        .hasSize(InitialConfig.PASSWORD_STORAGE_SCHEMES.size());
  }

  @Test
  void handEditedFileWithABadValueIsRefusedWithLineAndReason() throws Exception {
    Path file = initialStore().file();
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    int line = lines.indexOf("ds-cfg-index-entry-limit: 4000");
    assertThat(line).isPositive();
    lines.set(line, "ds-cfg-index-entry-limit: lots");
    Files.write(file, lines, StandardCharsets.UTF_8);

    ConfigStore edited = ConfigStore.load(file);
    assertThatThrownBy(() -> ServerConfig.read(edited))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("line " + (line + 1) + ":")
        .hasMessageContaining(
            "ds-cfg-index-entry-limit: \"lots\" (expected: an integer of at least 0)");
  }

  @Test
  void unknownPropertyAndLdifSyntaxErrorsAreRefusedWithTheirLine() throws Exception {
    Path file = initialStore().file();
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    int line = lines.indexOf("ds-cfg-log-file: logs/access");
    lines.add(line + 1, "ds-cfg-log-flie: logs/oops");
    Files.write(file, lines, StandardCharsets.UTF_8);
    assertThatThrownBy(() -> ServerConfig.read(ConfigStore.load(file)))
        .hasMessageContaining("line " + (line + 2) + ":")
        .hasMessageContaining("ds-cfg-log-flie: not a property of a log-publisher");

    lines.set(line + 1, "this line has no colon");
    Files.write(file, lines, StandardCharsets.UTF_8);
    assertThatThrownBy(() -> ConfigStore.load(file)).hasMessageContaining("line " + (line + 2));
  }

  @Test
  void entryOfTheWrongKindInAContainerIsRefused() throws Exception {
    ConfigEditor editor = new ConfigEditor(initialStore(), (candidate, config) -> {});
    assertThatThrownBy(
            () ->
                editor.add(
                    new Entry(
                        "cn=Stray,cn=Backends,cn=config",
                        new com.unboundid.ldap.sdk.Attribute("objectClass", "top", "ds-cfg-branch"),
                        new com.unboundid.ldap.sdk.Attribute("cn", "Stray"))))
        .hasMessageContaining(
            "cn=Stray,cn=Backends,cn=config: objectClass: expected ds-cfg-backend");
  }

  @Test
  void editorRefusesABadValueNamingThePropertyAndKeepsTheFile() throws Exception {
    ConfigEditor editor = new ConfigEditor(initialStore(), (candidate, config) -> {});
    String before = Files.readString(editor.store().file());
    assertThatThrownBy(
            () ->
                editor.modify(
                    ConfigDns.backend("userRoot"),
                    List.of(
                        new Modification(
                            ModificationType.REPLACE, "ds-cfg-index-entry-limit", "-1"))))
        .isInstanceOf(LDAPException.class)
        .hasMessageContaining("ds-cfg-index-entry-limit: \"-1\"")
        .extracting(e -> ((LDAPException) e).getResultCode())
        .isEqualTo(ResultCode.UNWILLING_TO_PERFORM);
    assertThat(Files.readString(editor.store().file())).isEqualTo(before);
  }

  @Test
  void editorSavesArchivesAndReportsRebuildAndRestartNotices() throws Exception {
    ConfigEditor editor = new ConfigEditor(initialStore(), (candidate, config) -> {});
    ConfigEditor.Outcome limit =
        editor.modify(
            ConfigDns.backend("userRoot"),
            List.of(
                new Modification(ModificationType.REPLACE, "ds-cfg-index-entry-limit", "5000")));
    assertThat(limit.notice())
        .contains("index-entry-limit")
        .contains("applies immediately")
        .contains("rebuild-index --rebuildDegraded");
    assertThat(limit.config().backends().get(0).indexEntryLimit()).isEqualTo(5000);
    assertThat(
            ServerConfig.read(ConfigStore.load(editor.store().file()))
                .backends()
                .get(0)
                .indexEntryLimit())
        .isEqualTo(5000);
    assertThat(Files.list(editor.store().file().resolveSibling("archived-configs"))).isNotEmpty();

    ConfigEditor.Outcome port =
        editor.modify(
            ConfigDns.connectionHandler("LDAP Connection Handler"),
            List.of(new Modification(ModificationType.REPLACE, "ds-cfg-listen-port", "1390")));
    assertThat(port.notice()).contains("listen-port").contains("restarts");
  }

  @Test
  void criteriaContainerIsCreatedWithItsFirstCriteriaAndDeletedWithItsPublisher() throws Exception {
    ConfigEditor editor = new ConfigEditor(initialStore(), (candidate, config) -> {});
    editor.add(
        new Entry(
            ConfigDns.logPublisher("Searches").toString(),
            new com.unboundid.ldap.sdk.Attribute(
                "objectClass",
                "top",
                "ds-cfg-log-publisher",
                "ds-cfg-file-based-access-log-publisher"),
            new com.unboundid.ldap.sdk.Attribute("cn", "Searches"),
            new com.unboundid.ldap.sdk.Attribute("ds-cfg-enabled", "true"),
            new com.unboundid.ldap.sdk.Attribute("ds-cfg-log-file", "logs/search"),
            new com.unboundid.ldap.sdk.Attribute("ds-cfg-filtering-policy", "inclusive")));
    DN criteria = ConfigModel.ACCESS_LOG_FILTERING_CRITERIA.dnOf("Searches", "Expensive Searches");
    ConfigEditor.Outcome added =
        editor.add(
            new Entry(
                criteria.toString(),
                new com.unboundid.ldap.sdk.Attribute(
                    "objectClass", "top", "ds-cfg-access-log-filtering-criteria"),
                new com.unboundid.ldap.sdk.Attribute("cn", "Expensive Searches"),
                new com.unboundid.ldap.sdk.Attribute("ds-cfg-log-record-type", "search"),
                new com.unboundid.ldap.sdk.Attribute("ds-cfg-search-response-is-indexed", "false"),
                new com.unboundid.ldap.sdk.Attribute(
                    "ds-cfg-response-etime-greater-than", "5000")));
    FilteringCriteriaConfig read =
        added.config().logPublishers().stream()
            .filter(p -> p.name().equals("Searches"))
            .findFirst()
            .orElseThrow()
            .criteria()
            .get(0);
    assertThat(read.recordTypes()).containsExactly("search");
    assertThat(read.searchIndexed()).isFalse();
    assertThat(read.etimeGreaterThan()).isEqualTo(5000L);

    editor.delete(ConfigDns.logPublisher("Searches"));
    assertThat(editor.store().get(criteria)).isNull();
    assertThat(editor.store().get(criteria.getParent())).isNull();
  }

  @Test
  void everyModelledEntryOfTheInitialConfigurationValidates() throws Exception {
    for (Entry e : initialStore().all()) {
      assertThat(EntryValidator.violations(e)).as(e.getDN()).isEmpty();
    }
  }
}
