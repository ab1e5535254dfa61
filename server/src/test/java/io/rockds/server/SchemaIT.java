package io.rockds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.schema.Schema;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Custom schema: files in {@code config/schema}, and online additions by a modify of {@code
 * cn=schema} that survive a restart. OpenLDAP changes schema through cn=config, not the subschema
 * entry, so this follows OpenDJ and is not in {@link ConformanceIT}.
 */
class SchemaIT {
  private static final String AT =
      "( 1.3.6.1.4.1.99999.1.1 NAME 'rockdsTestBadge' "
          + "EQUALITY caseIgnoreMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )";
  private static final String OC =
      "( 1.3.6.1.4.1.99999.2.1 NAME 'rockdsTestBadged' SUP top AUXILIARY "
          + "MUST rockdsTestBadge )";

  @TempDir Path dir;

  @Test
  void onlineAdditions_areUsableAndSurviveARestart() throws Exception {
    try (TestServer server = TestServer.start(dir, TestServer.baseEntries())) {
      try (LDAPConnection root = server.rootConnection()) {
        root.modify(
            "cn=schema",
            new Modification(ModificationType.ADD, "attributeTypes", AT),
            new Modification(ModificationType.ADD, "objectClasses", OC));
        addBadgedPerson(root);
        assertThat(Schema.getSchema(root).getObjectClass("rockdsTestBadged")).isNotNull();
        assertThat(server.instance().schemaDirectory().resolve("99-user.ldif")).exists();
        assertThatThrownBy(
                () ->
                    root.modify(
                        "cn=schema", new Modification(ModificationType.ADD, "attributeTypes", AT)))
            .isInstanceOfSatisfying(
                LDAPException.class,
                e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.ATTRIBUTE_OR_VALUE_EXISTS));
        assertThatThrownBy(
                () ->
                    root.modify(
                        "cn=schema",
                        new Modification(
                            ModificationType.ADD,
                            "objectClasses",
                            "( 1.3.6.1.4.1.99999.2.2 NAME 'broken' SUP top AUXILIARY MAY noSuchAttribute )")))
            .isInstanceOfSatisfying(
                LDAPException.class,
                e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.INVALID_ATTRIBUTE_SYNTAX));
      }
      try (LDAPConnection anonymous = server.anonymousConnection()) {
        assertThatThrownBy(
                () ->
                    anonymous.modify(
                        "cn=schema",
                        new Modification(
                            ModificationType.ADD,
                            "attributeTypes",
                            AT.replace("99999.1.1", "99999.1.9").replace("Badge'", "Other'"))))
            .isInstanceOfSatisfying(
                LDAPException.class,
                e ->
                    assertThat(e.getResultCode()).isEqualTo(ResultCode.INSUFFICIENT_ACCESS_RIGHTS));
      }
      server.restart();
      try (LDAPConnection root = server.rootConnection()) {
        assertThat(
                root.getEntry("cn=badged,ou=People," + TestServer.BASE, "rockdsTestBadge")
                    .getAttributeValue("rockdsTestBadge"))
            .isEqualTo("A1");
        root.modify("cn=schema", new Modification(ModificationType.DELETE, "objectClasses", OC));
        assertThat(Schema.getSchema(root).getObjectClass("rockdsTestBadged")).isNull();
      }
    }
  }

  @Test
  void filesInTheSchemaFolder_areLoadedAtStart() throws Exception {
    try (TestServer server = TestServer.start(dir, TestServer.baseEntries())) {
      Files.createDirectories(server.instance().schemaDirectory());
      Files.writeString(
          server.instance().schemaDirectory().resolve("60-custom.ldif"),
          "dn: cn=schema\nobjectClass: top\nobjectClass: subschema\ncn: schema\nattributeTypes: "
              + AT
              + "\nobjectClasses: "
              + OC
              + "\n",
          StandardCharsets.UTF_8);
      server.restart();
      try (LDAPConnection root = server.rootConnection()) {
        addBadgedPerson(root);
        assertThatThrownBy(
                () ->
                    root.add(
                        new Entry(
                            "dn: cn=unbadged,ou=People," + TestServer.BASE,
                            "objectClass: person",
                            "objectClass: rockdsTestBadged",
                            "cn: unbadged",
                            "sn: u")))
            .isInstanceOfSatisfying(
                LDAPException.class,
                e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.OBJECT_CLASS_VIOLATION));
      }
    }
  }

  private static void addBadgedPerson(LDAPConnection root) throws Exception {
    root.add(
        new Entry(
            "dn: cn=badged,ou=People," + TestServer.BASE,
            "objectClass: person",
            "objectClass: rockdsTestBadged",
            "cn: badged",
            "sn: b",
            "rockdsTestBadge: A1"));
  }
}
