package io.rockds.storage;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which entries and attributes an import or export keeps: include / exclude branches and excluded
 * attributes, as import-ldif and export-ldif take them. An entry is kept when it is below an
 * included branch (or none is given) and below no excluded one.
 */
public record EntryFilter(
    List<DN> includeBranches, List<DN> excludeBranches, Set<String> excludeAttributes) {
  public static final EntryFilter ALL = new EntryFilter(List.of(), List.of(), Set.of());

  public EntryFilter {
    includeBranches = List.copyOf(includeBranches);
    excludeBranches = List.copyOf(excludeBranches);
    excludeAttributes =
        excludeAttributes.stream()
            .map(a -> a.toLowerCase(Locale.ROOT))
            .collect(Collectors.toUnmodifiableSet());
  }

  /** Null when {@code dn} is kept, otherwise why not (the skip reason). */
  public String skipReason(DN dn) {
    for (DN excluded : excludeBranches) {
      if (dn.isDescendantOf(excluded, true)) {
        return "below the excluded branch " + excluded;
      }
    }
    if (includeBranches.isEmpty()) {
      return null;
    }
    for (DN included : includeBranches) {
      if (dn.isDescendantOf(included, true)) {
        return null;
      }
    }
    return "not below an included branch";
  }

  /**
   * True when some kept entry may lie below {@code base}: an included branch is inside it or above
   * it.
   */
  public boolean mayKeepBelow(DN base) {
    if (includeBranches.isEmpty()) {
      return true;
    }
    for (DN included : includeBranches) {
      if (included.isDescendantOf(base, true) || base.isDescendantOf(included, true)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The entry without the excluded attributes (with or without options); itself when none apply.
   */
  public Entry stripAttributes(Entry entry) {
    if (excludeAttributes.isEmpty()) {
      return entry;
    }
    Entry copy = entry.duplicate();
    for (com.unboundid.ldap.sdk.Attribute a : entry.getAttributes()) {
      if (excludeAttributes.contains(a.getBaseName().toLowerCase(Locale.ROOT))) {
        copy.removeAttribute(a.getName());
      }
    }
    return copy;
  }
}
