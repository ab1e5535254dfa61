package io.rockds.server.security.aci;

import java.util.List;

/**
 * The rights one subject has on one entry: the permissions of the applicable ACIs whose bind rules
 * matched, computed once per entry and then asked per attribute. A deny beats any allow; without a
 * matching allow, access is denied.
 */
public final class EntryAccess {
  /** A matched permission with the targets of the ACI it came from. */
  record Grant(AciTargets targets, Aci.Permission permission) {}

  private final List<Grant> grants;
  private final OperationalTypes operational;

  EntryAccess(List<Grant> grants, OperationalTypes operational) {
    this.grants = grants;
    this.operational = operational;
  }

  /** An entry-level right: add, delete, proxy, or read meaning "may see the entry at all". */
  public boolean allowsEntry(Right right) {
    boolean allowed = false;
    for (Grant g : grants) {
      if (g.permission().rights().contains(right)) {
        if (!g.permission().allow()) {
          if (g.targets().coversEntry()) {
            return false;
          }
        } else {
          allowed = true;
        }
      }
    }
    return allowed;
  }

  /** A right on one attribute (any case, options allowed: {@code cn;lang-fr}). */
  public boolean allowsAttribute(Right right, String attribute) {
    String name = OperationalTypes.baseName(attribute);
    boolean isOperational = operational.isOperational(name);
    boolean allowed = false;
    for (Grant g : grants) {
      if (g.permission().rights().contains(right)
          && g.targets().coversAttribute(name, isOperational)) {
        if (!g.permission().allow()) {
          return false;
        }
        allowed = true;
      }
    }
    return allowed;
  }
}
