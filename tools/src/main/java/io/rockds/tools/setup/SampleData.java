package io.rockds.tools.setup;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.RDN;
import java.util.ArrayList;
import java.util.List;

/**
 * The entries of a new instance: the suffix entry, {@code ou=People} with {@code users} users
 * ({@code uid=user.N}, password {@code password}, as OpenDJ's sample data) and {@code ou=Groups}
 * with one group of all of them.
 */
public final class SampleData {
  private static final String[] FIRST = {
    "Aaron", "Barbara", "Carlos", "Denise", "Edgar", "Fatima", "Gustav", "Hana", "Ivan", "Julia",
    "Kenji", "Laura", "Mehdi", "Nora", "Oscar", "Priya", "Quentin", "Rosa", "Samuel", "Tamar"
  };
  private static final String[] LAST = {
    "Lee",
    "Smith",
    "Garcia",
    "Nguyen",
    "Jensen",
    "Kowalski",
    "Okafor",
    "Rossi",
    "Dubois",
    "Tanaka",
    "Silva",
    "Novak",
    "Ahmed",
    "Berg",
    "Costa",
    "Fischer",
    "Ivanova",
    "Moreau",
    "Sato",
    "Walsh"
  };

  private SampleData() {}

  /** The suffix entry alone, with the object class its RDN attribute needs. */
  public static Entry suffix(DN baseDn) {
    RDN rdn = baseDn.getRDN();
    String attribute = rdn.getAttributeNames()[0];
    String value = rdn.getAttributeValues()[0];
    String objectClass =
        switch (attribute.toLowerCase(java.util.Locale.ROOT)) {
          case "dc" -> "domain";
          case "o" -> "organization";
          case "ou" -> "organizationalUnit";
          case "c" -> "country";
          default -> "extensibleObject";
        };
    return new Entry(
        baseDn, new Attribute("objectClass", "top", objectClass), new Attribute(attribute, value));
  }

  public static List<Entry> entries(DN baseDn, int users) {
    List<Entry> entries = new ArrayList<>();
    entries.add(suffix(baseDn));
    DN people = new DN(new RDN("ou", "People"), baseDn);
    DN groups = new DN(new RDN("ou", "Groups"), baseDn);
    entries.add(
        new Entry(
            people,
            new Attribute("objectClass", "top", "organizationalUnit"),
            new Attribute("ou", "People")));
    entries.add(
        new Entry(
            groups,
            new Attribute("objectClass", "top", "organizationalUnit"),
            new Attribute("ou", "Groups")));
    String domain = domainOf(baseDn);
    List<String> members = new ArrayList<>();
    for (int i = 0; i < users; i++) {
      String first = FIRST[i % FIRST.length];
      String last = LAST[(i / FIRST.length + i) % LAST.length];
      DN dn = new DN(new RDN("uid", "user." + i), people);
      members.add(dn.toString());
      entries.add(
          new Entry(
              dn,
              new Attribute(
                  "objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
              new Attribute("uid", "user." + i),
              new Attribute("givenName", first),
              new Attribute("sn", last),
              new Attribute("cn", first + " " + last),
              new Attribute("initials", first.substring(0, 1) + last.substring(0, 1)),
              new Attribute("employeeNumber", Integer.toString(i)),
              new Attribute("mail", "user." + i + "@" + domain),
              new Attribute(
                  "telephoneNumber",
                  String.format("+1 555 %03d %04d", i / 10000 % 1000, i % 10000)),
              new Attribute(
                  "description", "This is the description for " + first + " " + last + "."),
              new Attribute("userPassword", "password")));
    }
    if (users > 0) {
      entries.add(
          new Entry(
              new DN(new RDN("cn", "Sample Group"), groups),
              new Attribute("objectClass", "top", "groupOfNames"),
              new Attribute("cn", "Sample Group"),
              new Attribute("member", members)));
    }
    return entries;
  }

  private static String domainOf(DN baseDn) {
    StringBuilder sb = new StringBuilder();
    for (RDN rdn : baseDn.getRDNs()) {
      if (rdn.getAttributeNames()[0].equalsIgnoreCase("dc")) {
        sb.append(sb.length() > 0 ? "." : "").append(rdn.getAttributeValues()[0]);
      }
    }
    return sb.length() > 0 ? sb.toString() : "example.com";
  }
}
