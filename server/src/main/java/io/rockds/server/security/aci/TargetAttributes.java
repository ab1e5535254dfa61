package io.rockds.server.security.aci;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The {@code targetattr} of an ACI: named attributes, {@code *} (all user attributes) and {@code +}
 * (all operational attributes), joined by {@code ||}; with {@code !=}, every user attribute except
 * the named ones, as in OpenDJ.
 */
final class TargetAttributes {
  private final Set<String> names;
  private final boolean allUser;
  private final boolean allOperational;
  private final boolean negated;

  private TargetAttributes(
      Set<String> names, boolean allUser, boolean allOperational, boolean negated) {
    this.names = names;
    this.allUser = allUser;
    this.allOperational = allOperational;
    this.negated = negated;
  }

  static TargetAttributes parse(String value, boolean negated) throws AciSyntaxException {
    Set<String> names = new HashSet<>();
    boolean user = false;
    boolean operational = false;
    for (String part : value.split("\\|\\|")) {
      String name = part.trim().toLowerCase(Locale.ROOT);
      if (name.equals("*")) {
        user = true;
      } else if (name.equals("+")) {
        operational = true;
      } else if (name.matches("[a-z0-9][a-z0-9.;-]*")) {
        names.add(name);
      } else {
        throw new AciSyntaxException(
            "invalid attribute name \"" + part.trim() + "\" in targetattr");
      }
    }
    if (negated && (user || operational)) {
      throw new AciSyntaxException("targetattr != cannot name * or +");
    }
    return new TargetAttributes(Set.copyOf(names), user, operational, negated);
  }

  /** True if the ACI covers {@code attribute} (its base name, lower case). */
  boolean covers(String attribute, boolean operational) {
    if (negated) {
      return !operational && !names.contains(attribute);
    }
    return names.contains(attribute) || (operational ? allOperational : allUser);
  }

  /** True if the ACI covers every attribute an entry may hold, so a deny hides the whole entry. */
  boolean coversEverything() {
    return allUser && allOperational;
  }
}
