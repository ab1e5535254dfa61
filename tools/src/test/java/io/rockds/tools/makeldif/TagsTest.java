package io.rockds.tools.makeldif;

import static io.rockds.tools.makeldif.TemplateRunner.entries;
import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every tag of the template language, each on a small real template. */
class TagsTest {
  @TempDir Path directory;

  private List<String> values(String attribute, int count, String... lines) throws IOException {
    return entries(directory, count, lines).stream()
        .map(entry -> entry.getAttributeValue(attribute))
        .collect(Collectors.toList());
  }

  /** The one entry a template of these lines makes. */
  private Entry oneEntry(String... lines) throws IOException {
    return entries(directory, 1, lines).get(0);
  }

  /** The entries of a whole template, generated with seed 1. */
  private List<Entry> generate(String template) throws IOException {
    return TemplateRunner.generate(TemplateRunner.write(directory, template), Map.of(), 1);
  }

  /** The first value of each attribute named, in that order (null where the entry has none). */
  private static List<String> firstValues(Entry entry, String... attributes) {
    return Arrays.stream(attributes).map(entry::getAttributeValue).toList();
  }

  @Test
  void firstAndLast_pickFromTheBuiltInNameLists() throws IOException {
    Set<String> first = new HashSet<>(TemplateResources.readBuiltIn("first.names"));
    Set<String> last =
        TemplateResources.readBuiltIn("last.names").stream()
            .map(line -> line.substring(0, line.indexOf(';')))
            .collect(Collectors.toSet());

    List<Entry> people = entries(directory, 50, "givenName: <first>", "sn: <LAST>");

    assertThat(people)
        .allSatisfy(
            person -> {
              assertThat(person.getAttributeValue("givenName")).isIn(first);
              assertThat(person.getAttributeValue("sn")).isIn(last);
            });
  }

  /**
   * As many names as OpenDJ's MakeLDIF lists (about 8,600 first and 13,000 last names), so that at
   * 10M entries a rare surname still names a few hundred entries, under the index entry limit,
   * instead of every sn key passing it.
   */
  @Test
  void theBuiltInNameListsAreLargeEnoughForTenMillionEntries() throws IOException {
    List<String> last = TemplateResources.readBuiltIn("last.names");
    long totalWeight =
        last.stream()
            .mapToLong(line -> Long.parseLong(line.substring(line.indexOf(';') + 1)))
            .sum();
    assertThat(new HashSet<>(TemplateResources.readBuiltIn("first.names")))
        .hasSizeGreaterThan(8_000);
    assertThat(last).hasSizeGreaterThan(10_000);
    assertThat(10_000_000L / totalWeight).isLessThan(4_000);
  }

  @Test
  void lastNames_areWeightedSoCommonSurnamesOccurOften() throws IOException {
    List<String> surnames = values("sn", 5000, "sn: <last>");

    long smiths = surnames.stream().filter("Smith"::equals).count();
    long zellers = surnames.stream().filter("Zeller"::equals).count();
    assertThat(smiths).isGreaterThan(50).isGreaterThan(10 * zellers);
    assertThat(new HashSet<>(surnames)).hasSizeGreaterThan(500);
  }

  @Test
  void sequential_startsCountsByIncrementAndResetsUnderEachParent() throws IOException {
    assertThat(values("a", 3, "a: <sequential>")).containsExactly("0", "1", "2");
    assertThat(values("a", 3, "a: <sequential:5>")).containsExactly("5", "6", "7");
    assertThat(values("a", 3, "a: x<sequential:10:5>y")).containsExactly("x10y", "x15y", "x20y");

    String text =
        "branch: dc=example,dc=com\nsubordinateTemplate: parent:2\n\n"
            + "template: parent\nrdnAttr: ou\nou: p<sequential>\nsubordinateTemplate: child:2\n\n"
            + "template: child\nrdnAttr: cn\ncn: c<sequential:1:true>\nn: <sequential:1:1:false>\n";
    List<Entry> all = generate(text);
    assertThat(all.stream().map(Entry::getDN))
        .containsExactly(
            "dc=example,dc=com",
            "ou=p0,dc=example,dc=com",
            "cn=c1,ou=p0,dc=example,dc=com",
            "cn=c2,ou=p0,dc=example,dc=com",
            "ou=p1,dc=example,dc=com",
            "cn=c1,ou=p1,dc=example,dc=com",
            "cn=c2,ou=p1,dc=example,dc=com");
    assertThat(all.get(6).getAttributeValue("n")).isEqualTo("4");
  }

  @Test
  void random_generatesEachTypeInItsShape() throws IOException {
    List<Entry> all =
        entries(
            directory,
            30,
            "alpha: <random:alpha:6>",
            "alphaRange: <random:alpha:2:4>",
            "digits: <random:numeric:5>",
            "number: <random:numeric:1:6>",
            "padded: <random:numeric:1:6:3>",
            "alnum: <random:alphanumeric:8>",
            "hex: <random:hex:8>",
            "b64: <random:base64:8>",
            "chars: <random:chars:xyz:4>",
            "charsRange: <random:chars:AB:1:3>",
            "phone: <random:telephone>",
            "month: <random:month>",
            "mon: <random:month:3>");

    Set<String> months =
        Set.of(
            "January",
            "February",
            "March",
            "April",
            "May",
            "June",
            "July",
            "August",
            "September",
            "October",
            "November",
            "December");
    assertThat(all)
        .allSatisfy(
            entry -> {
              assertThat(entry.getAttributeValue("alpha")).matches("[a-z]{6}");
              assertThat(entry.getAttributeValue("alphaRange")).matches("[a-z]{2,4}");
              assertThat(entry.getAttributeValue("digits")).matches("[0-9]{5}");
              assertThat(Integer.parseInt(entry.getAttributeValue("number"))).isBetween(1, 6);
              assertThat(entry.getAttributeValue("padded")).matches("00[1-6]");
              assertThat(entry.getAttributeValue("alnum")).matches("[a-z0-9]{8}");
              assertThat(entry.getAttributeValue("hex")).matches("[0-9a-f]{8}");
              assertThat(entry.getAttributeValue("b64")).matches("[A-Za-z0-9+/]{8}");
              assertThat(entry.getAttributeValue("chars")).matches("[xyz]{4}");
              assertThat(entry.getAttributeValue("charsRange")).matches("[AB]{1,3}");
              assertThat(entry.getAttributeValue("phone"))
                  .matches("\\+1 [0-9]{3} [0-9]{3} [0-9]{4}");
              assertThat(entry.getAttributeValue("month")).isIn(months);
              assertThat(entry.getAttributeValue("mon")).hasSize(3);
            });
    assertThat(all.stream().map(entry -> entry.getAttributeValue("alpha")).distinct())
        .hasSizeGreaterThan(25);
  }

  @Test
  void presence_keepsTheLineInThatShareOfEntries() throws IOException {
    List<Entry> all =
        entries(
            directory,
            200,
            "never: <presence:0>x",
            "always: <presence:100>x",
            "half: <presence:50>x");

    assertThat(all).noneMatch(entry -> entry.hasAttribute("never"));
    assertThat(all).allMatch(entry -> entry.hasAttribute("always"));
    assertThat(all.stream().filter(entry -> entry.hasAttribute("half")).count())
        .isBetween(60L, 140L);
  }

  @Test
  void ifPresentAndIfAbsent_testTheAttributeOrOneOfItsValues() throws IOException {
    Entry entry =
        oneEntry(
            "color: blue",
            "a: <ifpresent:color>yes",
            "b: <ifpresent:size>no",
            "c: <ifpresent:color:blue>yes",
            "d: <ifpresent:color:red>no",
            "e: <ifabsent:size>yes",
            "f: <ifabsent:color>no",
            "g: <ifabsent:color:red>yes",
            "h: <ifabsent:color:blue>no");

    assertThat(firstValues(entry, "a", "c", "e", "g")).containsOnly("yes");
    assertThat(List.of("b", "d", "f", "h")).noneMatch(entry::hasAttribute);
  }

  @Test
  void list_picksItsValuesHonouringWeights() throws IOException {
    List<String> picked = values("a", 400, "a: <list:red:green;9>");

    assertThat(picked).containsOnly("red", "green");
    assertThat(picked.stream().filter("green"::equals).count()).isGreaterThan(300);
  }

  @Test
  void file_readsLinesFromTheTemplateDirectoryRandomlyOrInSequence() throws IOException {
    Files.write(
        directory.resolve("colors"), List.of("red", "green", "blue"), StandardCharsets.UTF_8);

    assertThat(values("a", 4, "a: <file:colors:sequential>"))
        .containsExactly("red", "green", "blue", "red");
    assertThat(values("a", 30, "a: <file:colors>")).containsOnly("red", "green", "blue");
    assertThat(values("a", 30, "a: <file:" + directory.resolve("colors") + ":random>"))
        .containsOnly("red", "green", "blue");
  }

  @Test
  void builtInDataFiles_areFoundByName() throws IOException {
    List<Entry> all =
        entries(directory, 20, "street: <file:streets>", "l: <file:cities>", "st: <file:states>");

    assertThat(all)
        .allSatisfy(
            entry -> {
              assertThat(entry.getAttributeValue("street")).isNotBlank();
              assertThat(entry.getAttributeValue("l")).isNotBlank();
              assertThat(entry.getAttributeValue("st")).matches("[A-Z]{2}");
            });
  }

  @Test
  void guid_isARandomVersion4Uuid() throws IOException {
    List<String> guids = values("a", 20, "a: <guid>");

    assertThat(guids)
        .allMatch(
            guid ->
                guid.matches(
                    "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"));
    assertThat(new HashSet<>(guids)).hasSize(20);
    assertThat(values("a", 1, "a: <GUID>")).hasSize(1);
  }

  @Test
  void dnTags_nameTheEntryItsParentAndItsRdn() throws IOException {
    Entry entry =
        oneEntry(
            "dn: <DN>",
            "under: <_DN>",
            "under2: <underscoreDN>",
            "parent: <ParentDN>",
            "underParent: <_ParentDN>",
            "rdn: <RDN>",
            "first: <DN:1>",
            "last: <DN:-2>");

    assertThat(
            firstValues(
                entry, "dn", "under", "under2", "parent", "underParent", "rdn", "first", "last"))
        .containsExactly(
            "uid=u.0,dc=example,dc=com",
            "uid=u.0_dc=example_dc=com",
            "uid=u.0_dc=example_dc=com",
            "dc=example,dc=com",
            "dc=example_dc=com",
            "uid=u.0",
            "uid=u.0",
            "dc=example,dc=com");
  }

  @Test
  void base64_encodesItsTextIncludingNestedTags() throws IOException {
    Entry entry =
        oneEntry(
            "a: <base64:hello>",
            "b: <base64:{uid}:<sequential:7>>",
            "c:: <base64:binary <random:numeric:3>>");

    assertThat(entry.getAttributeValue("a")).isEqualTo("aGVsbG8=");
    assertThat(
            new String(
                java.util.Base64.getDecoder().decode(entry.getAttributeValue("b")),
                StandardCharsets.UTF_8))
        .isEqualTo("u.0:7");
    assertThat(new String(entry.getAttributeValueBytes("c"), StandardCharsets.UTF_8))
        .matches("binary \\d{3}");
  }

  @Test
  void attributeReferences_copyEarlierValuesWholeOrCut() throws IOException {
    Entry entry =
        oneEntry(
            "givenName: Barbara",
            "sn: Jensen",
            "cn: {givenName} {sn}",
            "initials: {givenName:1}{SN:1}",
            "long: {sn:100}",
            "missing: x{nothing}");

    assertThat(firstValues(entry, "cn", "initials", "long", "missing"))
        .containsExactly("Barbara Jensen", "BJ", "Jensen", "x");
  }

  @Test
  void escapesAndEmptyValues_areLiteralAndLeftOut() throws IOException {
    Entry entry = oneEntry("a: 1 \\< 2 \\{x\\} \\\\", "b:", "c: <presence:0>", "d: $> [undefined]");

    assertThat(firstValues(entry, "a", "d")).containsExactly("1 < 2 {x} \\", "$> [undefined]");
    assertThat(List.of("b", "c")).noneMatch(entry::hasAttribute);
  }

  @Test
  void rdnValues_areEscapedInTheDn() throws Exception {
    Entry entry = oneEntry("cn: Smith, John + <list:#1>");
    String text =
        "branch: o=test\nsubordinateTemplate: t:1\n\ntemplate: t\nrdnAttr: cn+sn\ncn: Doe, Jane\nsn: <list: Doe >\n";

    Entry escaped = generate(text).get(1);

    assertThat(entry.getAttributeValue("cn")).isEqualTo("Smith, John + #1");
    assertThat(new DN(escaped.getDN()).getRDN().getAttributeValues())
        .containsExactly("Doe, Jane", " Doe ");
    assertThat(new DN(escaped.getDN()).getParent()).isEqualTo(new DN("o=test"));
  }

  @Test
  void partition_dealsTheIntegersRoundRobinToConsecutiveEntries() throws IOException {
    List<Entry> groups = entries(directory, 4, "member: m<partition:1:10:3>x");

    assertThat(groups.get(0).getAttributeValues("member")).containsExactly("m3x", "m6x", "m9x");
    assertThat(groups.get(1).getAttributeValues("member"))
        .containsExactly("m1x", "m4x", "m7x", "m10x");
    assertThat(groups.get(2).getAttributeValues("member")).containsExactly("m2x", "m5x", "m8x");
    assertThat(groups.get(3).getAttributeValues("member")).containsExactly("m3x", "m6x", "m9x");
  }

  @Test
  void constants_areSubstitutedAndOverriddenFromTheCommandLine() throws IOException {
    String text =
        "define suffix=dc=example,dc=com\ndefine count=2\ndefine greeting=hello [suffix]\n\n"
            + "branch: [suffix]\nsubordinateTemplate: t:[count]\n\n"
            + "template: t\nrdnAttr: uid\nuid: u<sequential>\ndescription: [greeting]\n";
    Path template = TemplateRunner.write(directory, text);

    List<Entry> defaults = TemplateRunner.generate(template, Map.of(), 1);
    List<Entry> overridden =
        TemplateRunner.generate(template, Map.of("count", "5", "suffix", "o=other"), 1);

    assertThat(defaults).hasSize(3);
    assertThat(defaults.get(1).getAttributeValue("description"))
        .isEqualTo("hello dc=example,dc=com");
    assertThat(overridden).hasSize(6);
    assertThat(overridden.get(5).getDN()).isEqualTo("uid=u4,o=other");
  }

  @Test
  void branches_deriveObjectClassesFromTheRdnOrTakeTheirOwnLines() throws IOException {
    String text =
        "branch: o=test\n\nbranch: ou=Groups,o=test\ndescription: all groups\n\n"
            + "branch: cn=admins,ou=Groups,o=test\nobjectClass: top\nobjectClass: groupOfNames\nmember: cn=root\n\n"
            + "branch: c=us,o=test\n\nbranch: dc=x,o=test\n\nbranch: uid=other,o=test\n";
    List<Entry> all = generate(text);

    assertThat(all.get(0).getObjectClassValues()).containsExactly("top", "organization");
    assertThat(all.get(0).getAttributeValue("o")).isEqualTo("test");
    assertThat(all.get(1).getObjectClassValues()).containsExactly("top", "organizationalUnit");
    assertThat(all.get(1).getAttributeValue("description")).isEqualTo("all groups");
    assertThat(all.get(2).getObjectClassValues()).containsExactly("top", "groupOfNames");
    assertThat(all.get(2).getAttributeValue("cn")).isEqualTo("admins");
    assertThat(all.get(3).getObjectClassValues()).containsExactly("top", "country");
    assertThat(all.get(4).getObjectClassValues()).containsExactly("top", "domain");
    assertThat(all.get(5).getObjectClassValues()).containsExactly("top", "extensibleObject");
  }

  @Test
  void extends_inheritsLinesRdnAttrAndSubordinates() throws IOException {
    String text =
        "branch: o=test\nsubordinateTemplate: manager:1\n\n"
            + "template: person\nrdnAttr: uid\nsubordinateTemplate: note:1\nobjectClass: person\nuid: p<sequential>\nsn: <last>\n\n"
            + "template: manager\nextends: person\nobjectClass: manager\ntitle: boss\n\n"
            + "template: note\nrdnAttr: cn\ncn: note\n";
    List<Entry> all = generate(text);

    assertThat(all)
        .extracting(Entry::getDN)
        .containsExactly("o=test", "uid=p0,o=test", "cn=note,uid=p0,o=test");
    assertThat(all.get(1).getObjectClassValues()).containsExactly("person", "manager");
    assertThat(all.get(1).getAttributeValue("title")).isEqualTo("boss");
    assertThat(all.get(1).hasAttribute("sn")).isTrue();
  }

  @Test
  void builtInExampleTemplate_makesOpenDjStyleUsers() throws IOException {
    List<Entry> all = new java.util.ArrayList<>();
    long count =
        LdifGenerator.generate(
            TemplateFile.load(TemplateFile.EXAMPLE, Map.of("numusers", "10"), null), 0, all::add);

    assertThat(count).isEqualTo(12);
    Entry user = all.get(2);
    assertThat(user.getDN()).isEqualTo("uid=user.0,ou=People,dc=example,dc=com");
    assertThat(user.getAttributeValue("initials")).matches("[A-Z]{3}");
    assertThat(user.getAttributeValue("mail")).isEqualTo("user.0@example.com");
    for (String attribute :
        List.of(
            "givenName",
            "sn",
            "cn",
            "employeeNumber",
            "userPassword",
            "telephoneNumber",
            "homePhone",
            "pager",
            "mobile",
            "street",
            "l",
            "st",
            "postalCode",
            "postalAddress",
            "description")) {
      assertThat(user.hasAttribute(attribute)).as(attribute).isTrue();
    }
  }
}
