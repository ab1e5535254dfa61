package io.rockds.server.security.aci;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.RDN;
import java.util.Locale;

/**
 * A DN in an ACI, possibly with {@code *} wildcards in attribute values ({@code
 * uid=*,ou=People,dc=example,dc=com}), as OpenDJ accepts in {@code target} and {@code userdn}. A
 * pattern without wildcards is an exact DN compared by its normalized form.
 */
final class DnPattern {
  private final DN exact;

  /** Per RDN (leaf first): normalized "attr=value" globs, each possibly with '*'. */
  private final String[] globs;

  private DnPattern(DN exact, String[] globs) {
    this.exact = exact;
    this.globs = globs;
  }

  static DnPattern parse(String text) throws AciSyntaxException {
    String trimmed = text.trim();
    if (!trimmed.contains("*")) {
      try {
        return new DnPattern(new DN(trimmed), null);
      } catch (LDAPException e) {
        throw new AciSyntaxException("invalid DN \"" + trimmed + "\": " + e.getExceptionMessage());
      }
    }
    // Wildcards are not valid in DN syntax: split on unescaped commas and normalise each RDN
    // around its '*' characters, so case and spacing compare the way DN matching does.
    String[] parts = trimmed.split("(?<!\\\\),");
    String[] globs = new String[parts.length];
    for (int i = 0; i < parts.length; i++) {
      String part = parts[i].trim();
      int eq = part.indexOf('=');
      if (eq <= 0) {
        throw new AciSyntaxException(
            "invalid DN pattern \"" + trimmed + "\": RDN \"" + part + "\" has no '='");
      }
      String attr = part.substring(0, eq).trim().toLowerCase(Locale.ROOT);
      String value = part.substring(eq + 1).trim().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
      globs[i] = attr + "=" + value;
    }
    return new DnPattern(null, globs);
  }

  /** The exact DN, or null for a wildcard pattern. */
  DN exactDn() {
    return exact;
  }

  /** True if {@code dn} matches the whole pattern. */
  boolean matches(DN dn) {
    if (exact != null) {
      return exact.equals(dn);
    }
    RDN[] rdns = dn.getRDNs();
    return rdns.length == globs.length && matchesFrom(rdns, 0);
  }

  /** True if {@code dn} or one of its ancestors matches: the entry is in the pattern's subtree. */
  boolean matchesSubtree(DN dn) {
    if (exact != null) {
      return dn.isDescendantOf(exact, true);
    }
    RDN[] rdns = dn.getRDNs();
    return rdns.length >= globs.length && matchesFrom(rdns, rdns.length - globs.length);
  }

  /** The entry that a target scope is relative to: the matching ancestor-or-self of {@code dn}. */
  DN matchingBase(DN dn) {
    if (exact != null) {
      return exact;
    }
    DN base = dn;
    for (int i = dn.getRDNs().length; i > globs.length && base != null; i--) {
      base = base.getParent();
    }
    return base;
  }

  private boolean matchesFrom(RDN[] rdns, int start) {
    for (int i = 0; i < globs.length; i++) {
      if (!glob(globs[i], normalize(rdns[start + i]))) {
        return false;
      }
    }
    return true;
  }

  private static String normalize(RDN rdn) {
    String[] names = rdn.getAttributeNames();
    String[] values = rdn.getAttributeValues();
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < names.length; i++) {
      if (i > 0) {
        sb.append('+');
      }
      sb.append(names[i].toLowerCase(Locale.ROOT))
          .append('=')
          .append(values[i].trim().toLowerCase(Locale.ROOT).replaceAll("\\s+", " "));
    }
    return sb.toString();
  }

  /** Glob match with '*' = any run of characters; iterative with one backtrack point. */
  static boolean glob(String pattern, String text) {
    int p = 0;
    int t = 0;
    int star = -1;
    int mark = 0;
    while (t < text.length()) {
      if (p < pattern.length() && pattern.charAt(p) == text.charAt(t)) {
        p++;
        t++;
      } else if (p < pattern.length() && pattern.charAt(p) == '*') {
        star = p++;
        mark = t;
      } else if (star >= 0) {
        p = star + 1;
        t = ++mark;
      } else {
        return false;
      }
    }
    while (p < pattern.length() && pattern.charAt(p) == '*') {
      p++;
    }
    return p == pattern.length();
  }

  @Override
  public String toString() {
    return exact != null ? exact.toString() : String.join(",", globs);
  }
}
