package io.rockds.server.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.schema.Schema;
import io.rockds.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchemaLoaderTest {
  @TempDir Path dir;

  @Test
  void standard_hasTheSchemasDirectoriesExpect() {
    Schema schema = SchemaLoader.standard();
    for (String oc :
        new String[] {
          "inetOrgPerson",
          "posixAccount",
          "posixGroup",
          "groupOfURLs",
          "groupOfNames",
          "groupOfUniqueNames",
          "dcObject",
          "account",
          "subschema",
          "subentry",
          "dynamicObject"
        }) {
      assertThat(schema.getObjectClass(oc)).as(oc).isNotNull();
    }
    for (String at :
        new String[] {
          "uidNumber",
          "memberURL",
          "memberOf",
          "isMemberOf",
          "entryUUID",
          "entryDN",
          "hasSubordinates",
          "numSubordinates",
          "structuralObjectClass",
          "ds-privilege-name",
          "aci"
        }) {
      assertThat(schema.getAttributeType(at)).as(at).isNotNull();
    }
    assertThat(schema.getAttributeType("memberOf").isNoUserModification()).isTrue();
  }

  @Test
  void load_mergesTheFolderInNameOrder_andNamesABrokenFile() throws Exception {
    Files.writeString(
        dir.resolve("60-a.ldif"),
        """
        dn: cn=schema
        objectClass: subschema
        attributeTypes: ( 1.3.6.1.4.1.99999.1.5 NAME 'fileAttribute' SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )
        """);
    assertThat(SchemaLoader.load(dir).getAttributeType("fileAttribute")).isNotNull();
    Files.writeString(dir.resolve("70-broken.ldif"), "dn: cn=schema\nthis is not ldif\n");
    assertThatThrownBy(() -> SchemaLoader.load(dir))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("70-broken.ldif");
  }

  @Test
  void load_refusesADefinitionThatDoesNotParse_insteadOfSkippingIt() throws Exception {
    Files.writeString(
        dir.resolve("80-typo.ldif"),
        """
        dn: cn=schema
        objectClass: subschema
        attributeTypes: ( 1.3.6.1.4.1.99999.1.6 NAME 'fine' SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )
        objectClasses: ( 1.3.6.1.4.1.99999.2.6 NAME 'typo' SUP top AUXILIARY MAY ( fine $ )
        """);
    assertThatThrownBy(() -> SchemaLoader.load(dir))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("80-typo.ldif")
        .hasMessageContaining("1.3.6.1.4.1.99999.2.6");
  }

  @Test
  void subschemaEntry_listsMatchingRuleUses() {
    ServerSchema schema = serverSchema();
    Entry entry = schema.subschemaEntry();
    assertThat(entry.getAttributeValues("matchingRuleUse"))
        .anyMatch(v -> v.contains("caseIgnoreMatch") && v.contains("APPLIES"));
    assertThat(entry.getAttributeValues("objectClass")).contains("subschema");
  }

  private ServerSchema serverSchema() {
    try {
      return ServerSchema.load(dir);
    } catch (ConfigException e) {
      throw new AssertionError(e);
    }
  }
}
