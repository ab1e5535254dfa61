package io.rockds.server.security.aci;

import com.unboundid.ldap.sdk.DN;

/** The {@code targetscope} of an ACI: which entries below its target DN it covers. */
public enum TargetScope {
  BASE("base"),
  ONE_LEVEL("onelevel"),
  SUBTREE("subtree"),
  SUBORDINATE("subordinate");

  private final String keyword;

  TargetScope(String keyword) {
    this.keyword = keyword;
  }

  static TargetScope parse(String value) {
    for (TargetScope s : values()) {
      if (s.keyword.equalsIgnoreCase(value.trim())) {
        return s;
      }
    }
    return null;
  }

  /** True if {@code entry} lies in this scope of {@code base}. */
  boolean contains(DN base, DN entry) {
    return switch (this) {
      case BASE -> entry.equals(base);
      case ONE_LEVEL -> base.equals(entry.getParent());
      case SUBTREE -> entry.isDescendantOf(base, true);
      case SUBORDINATE -> entry.isDescendantOf(base, false);
    };
  }
}
