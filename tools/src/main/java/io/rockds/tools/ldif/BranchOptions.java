package io.rockds.tools.ldif;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.storage.EntryFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Option;

/** The filter options import-ldif and export-ldif share, with OpenDJ's names. */
final class BranchOptions {
  @Option(
      names = {"-b", "--includeBranch"},
      paramLabel = "DN",
      description = "Only entries at or below this DN" + " (repeatable).")
  List<String> includeBranches = new ArrayList<>();

  @Option(
      names = {"-B", "--excludeBranch"},
      paramLabel = "DN",
      description = "Leave out entries at or below this DN" + " (repeatable).")
  List<String> excludeBranches = new ArrayList<>();

  @Option(
      names = {"-e", "--excludeAttribute"},
      paramLabel = "ATTRIBUTE",
      description = "Leave out this attribute (repeatable).")
  List<String> excludeAttributes = new ArrayList<>();

  EntryFilter filter() throws LDAPException {
    return new EntryFilter(
        dns(includeBranches), dns(excludeBranches), Set.copyOf(excludeAttributes));
  }

  private static List<DN> dns(List<String> values) throws LDAPException {
    List<DN> dns = new ArrayList<>();
    for (String v : values) {
      dns.add(new DN(v));
    }
    return dns;
  }
}
