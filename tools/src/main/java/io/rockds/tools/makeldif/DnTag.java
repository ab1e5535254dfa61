package io.rockds.tools.makeldif;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.RDN;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The entry's own names: {@code <DN>}, {@code <_DN>} (alias {@code <underscoreDN>}: commas between
 * RDNs become underscores), {@code <ParentDN>}, {@code <_ParentDN>} and {@code <RDN>}. The DN forms
 * accept {@code :N}: the first N RDNs, or with a negative N the last -N ones. A DN tag on a
 * template line needs the {@code rdnAttr} values, so it must come after the lines that set them.
 */
record DnTag(Kind kind, int components) implements Tag {
  enum Kind {
    DN,
    UNDERSCORE_DN,
    PARENT_DN,
    UNDERSCORE_PARENT_DN,
    RDN
  }

  static DnTag parse(Kind kind, TagArguments args) {
    args.expectCount(
        0,
        kind == Kind.RDN ? 0 : 1,
        kind == Kind.RDN ? "no arguments" : "at most one argument, the number of RDNs");
    return new DnTag(kind, args.size() == 1 ? args.intAt(0) : 0);
  }

  @Override
  public boolean append(EntryContext entry, StringBuilder value) {
    switch (kind) {
      case RDN -> value.append(entry.rdn());
      case DN -> value.append(select(entry.dn(), ","));
      case UNDERSCORE_DN -> value.append(select(entry.dn(), "_"));
      case PARENT_DN -> value.append(select(entry.parentDn(), ","));
      case UNDERSCORE_PARENT_DN -> value.append(select(entry.parentDn(), "_"));
      default -> throw new IllegalStateException(kind.name());
    }
    return true;
  }

  private String select(String dn, String separator) {
    if (components == 0 && separator.equals(",")) {
      return dn;
    }
    RDN[] rdns;
    try {
      rdns = new DN(dn).getRDNs();
    } catch (LDAPException e) {
      throw new TemplateException(0, "generated DN '" + dn + "' is not valid: " + e.getMessage());
    }
    int from = 0;
    int to = rdns.length;
    if (components > 0) {
      to = Math.min(components, rdns.length);
    } else if (components < 0) {
      from = Math.max(0, rdns.length + components);
    }
    return Arrays.stream(rdns, from, to).map(RDN::toString).collect(Collectors.joining(separator));
  }
}
