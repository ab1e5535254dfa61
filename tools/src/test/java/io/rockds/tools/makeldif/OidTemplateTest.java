package io.rockds.tools.makeldif;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldif.LDIFReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The seed's appendix B template, run verbatim with 100 users instead of 10 million. */
class OidTemplateTest {
  private static final Path OID_10M =
      TemplateRunner.BENCHMARK_TEMPLATES.resolve("oid-10m.template");
  private static final Path OID_BENCH =
      TemplateRunner.BENCHMARK_TEMPLATES.resolve("oid-bench.template");
  private static final Map<String, String> HUNDRED_USERS = Map.of("numusers", "100");

  @TempDir Path directory;

  @Test
  void verbatimTemplate_generatesSuffixPeopleAndUsers() throws IOException {
    List<Entry> entries = TemplateRunner.generate(OID_10M, HUNDRED_USERS, 1);

    assertThat(entries).hasSize(102);
    assertThat(entries.get(0).getDN()).isEqualTo("dc=us,dc=oracle,dc=com");
    assertThat(entries.get(0).getObjectClassValues()).containsExactly("top", "domain");
    assertThat(entries.get(1).getDN()).isEqualTo("ou=People,dc=us,dc=oracle,dc=com");
    assertThat(entries.get(101).getDN()).isEqualTo("uid=user.100,ou=People,dc=us,dc=oracle,dc=com");
  }

  @Test
  void everyUser_hasTheTwentyAttributesAndTwentyThreeValuesTheTemplateDefines() throws IOException {
    List<Entry> users = TemplateRunner.generate(OID_10M, HUNDRED_USERS, 1).subList(2, 102);
    Set<String> states = new HashSet<>(TemplateResources.readBuiltIn("states"));

    for (int i = 0; i < users.size(); i++) {
      Entry user = users.get(i);
      int number = i + 1;
      // The seed's "38 attributes" count 12 operational attributes and, apparently, values
      // rather than types; the template itself defines 20 attribute types with 23 values.
      assertThat(user.getAttributes()).hasSize(20);
      assertThat(user.getAttributes().stream().mapToInt(Attribute::size).sum()).isEqualTo(23);
      assertThat(user.getObjectClassValues())
          .containsExactly("top", "person", "organizationalPerson", "inetOrgPerson");
      String givenName = user.getAttributeValue("givenName");
      String sn = user.getAttributeValue("sn");
      String cn = givenName + " " + sn;
      assertThat(user.getAttributeValue("cn")).isEqualTo(cn);
      assertThat(user.getAttributeValue("initials"))
          .isEqualTo("" + givenName.charAt(0) + sn.charAt(0));
      assertThat(user.getAttributeValue("uid")).isEqualTo("user." + number);
      assertThat(user.getAttributeValue("employeeNumber")).isEqualTo(Integer.toString(number));
      assertThat(user.getAttributeValue("mail")).isEqualTo("user." + number + "@oracle.com");
      assertThat(user.getAttributeValue("userPassword")).isEqualTo("welcome123");
      for (String phone : new String[] {"telephoneNumber", "homePhone", "pager", "mobile"}) {
        assertThat(user.getAttributeValue(phone)).matches("\\+1 \\d{3} \\d{3} \\d{4}");
      }
      assertThat(user.getAttributeValue("street")).matches("\\d{5} [A-Za-z ]+ Street");
      assertThat(user.getAttributeValue("st")).isIn(states);
      assertThat(user.getAttributeValue("postalCode")).matches("\\d{5}");
      assertThat(user.getAttributeValue("postalAddress"))
          .isEqualTo(
              cn
                  + "$"
                  + user.getAttributeValue("street")
                  + "$"
                  + user.getAttributeValue("l")
                  + ", "
                  + user.getAttributeValue("st")
                  + " "
                  + user.getAttributeValue("postalCode"));
      assertThat(user.getAttributeValue("description"))
          .isEqualTo("This is the description for " + cn + ".");
      byte[] photo = user.getAttributeValueBytes("photo");
      assertThat(photo).hasSize(1500);
      assertThat(new String(photo, StandardCharsets.US_ASCII)).matches("[a-z0-9]{1500}");
    }
  }

  @Test
  void ldifFile_hasBase64PhotoAndReadsBackAsTheGeneratedEntries() throws Exception {
    Path ldif = directory.resolve("oid.ldif");
    int exit =
        MakeLdif.run(
            "-t",
            OID_10M.toString(),
            "-c",
            "numusers=100",
            "-s",
            "5",
            "-o",
            ldif.toString(),
            "--quiet");
    List<Entry> expected = TemplateRunner.generate(OID_10M, HUNDRED_USERS, 5);

    assertThat(exit).isZero();
    assertThat(Files.readString(ldif)).containsPattern("\nphoto:: [A-Za-z0-9+/]{2000}\n");
    List<Entry> read = new ArrayList<>();
    try (LDIFReader reader = new LDIFReader(ldif.toFile())) {
      for (Entry entry = reader.readEntry(); entry != null; entry = reader.readEntry()) {
        read.add(entry);
      }
    }
    assertThat(read).isEqualTo(expected);
  }

  @Test
  void sameSeed_givesByteIdenticalLdif_otherSeedDoesNot() throws IOException {
    Path first = directory.resolve("first.ldif");
    Path second = directory.resolve("second.ldif");
    Path other = directory.resolve("other.ldif");
    MakeLdif.run(
        "-t", OID_10M.toString(), "-c", "numusers=50", "-s", "42", "-o", first.toString(), "-Q");
    MakeLdif.run(
        "-t", OID_10M.toString(), "-c", "numusers=50", "-s", "42", "-o", second.toString(), "-Q");
    MakeLdif.run(
        "-t", OID_10M.toString(), "-c", "numusers=50", "-s", "43", "-o", other.toString(), "-Q");

    assertThat(Files.mismatch(first, second)).isEqualTo(-1);
    assertThat(Files.mismatch(first, other)).isNotEqualTo(-1);
  }

  @Test
  void benchTemplate_hasTenGroupsSharingTheUsersByNumberModuloTen() throws IOException {
    List<Entry> entries = TemplateRunner.generate(OID_BENCH, Map.of("numusers", "1000"), 1);

    assertThat(entries).hasSize(1 + 1 + 1000 + 1 + 10);
    assertThat(entries.get(0).getDN()).isEqualTo("dc=example,dc=com");
    Set<String> allMembers = new HashSet<>();
    List<Entry> groups = entries.subList(1003, 1013);
    for (int g = 0; g < 10; g++) {
      Entry group = groups.get(g);
      assertThat(group.getDN()).isEqualTo("cn=group." + g + ",ou=Groups,dc=example,dc=com");
      assertThat(group.getObjectClassValues()).containsExactly("top", "groupOfNames");
      String[] members = group.getAttributeValues("member");
      assertThat(members).hasSize(100);
      for (String member : members) {
        int number = Integer.parseInt(member.substring("uid=user.".length(), member.indexOf(',')));
        assertThat(number % 10).isEqualTo(g);
        assertThat(member).endsWith(",ou=People,dc=example,dc=com");
        allMembers.add(member);
      }
    }
    Set<String> userDns = new HashSet<>();
    entries.subList(2, 1002).forEach(user -> userDns.add(user.getDN()));
    assertThat(allMembers).isEqualTo(userDns);
  }
}
