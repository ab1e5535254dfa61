package io.rockds.testsupport;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * What one server of a replication group holds, read over LDAP alike on every server so that
 * servers can be compared: its entries, with the operational attributes the server that prepared a
 * write chose, and its cn=changelog.
 */
public final class ReplicaContent {
  private ReplicaContent() {}

  /**
   * The entries below {@code base}: normalized DN to the entry in LDIF, its attributes (with
   * entryUUID, the timestamps and the creator) and their values sorted.
   */
  public static TreeMap<String, String> entries(LDAPConnection c, String base)
      throws LDAPException {
    TreeMap<String, String> entries = new TreeMap<>();
    for (SearchResultEntry entry :
        c.search(
                base,
                SearchScope.SUB,
                "(objectClass=*)",
                "*",
                "entryUUID",
                "createTimestamp",
                "modifyTimestamp",
                "creatorsName")
            .getSearchEntries()) {
      StringBuilder ldif = new StringBuilder();
      entry.getAttributes().stream()
          .sorted((a, b) -> a.getName().compareToIgnoreCase(b.getName()))
          .forEach(
              a ->
                  Arrays.stream(a.getValues())
                      .sorted()
                      .forEach(v -> ldif.append(a.getName()).append(": ").append(v).append('\n')));
      entries.put(entry.getParsedDN().toNormalizedString(), ldif.toString());
    }
    return entries;
  }

  /** "number type targetDN" of every change in cn=changelog, in number order. */
  public static List<String> changelog(LDAPConnection c) throws LDAPException {
    List<String> changes = new ArrayList<>();
    for (Entry e :
        c.search("cn=changelog", SearchScope.ONE, "(changeNumber>=0)").getSearchEntries()) {
      changes.add(
          e.getAttributeValue("changeNumber")
              + " "
              + e.getAttributeValue("changeType")
              + " "
              + e.getAttributeValue("targetDN"));
    }
    return changes;
  }
}
