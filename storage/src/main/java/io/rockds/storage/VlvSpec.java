package io.rockds.storage;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.SearchScope;
import java.util.ArrayList;
import java.util.List;

/**
 * A VLV index as configured ({@code dsconfig create-backend-vlv-index}): the entries of one base
 * DN, scope and filter, kept in one sort order.
 *
 * @param name the index name, e.g. {@code byName}; its tree is {@code vlv.<name>}
 * @param sortOrder the keys, most significant first
 */
public record VlvSpec(
    String name, DN base, SearchScope scope, Filter filter, List<SortKey> sortOrder) {

  /**
   * One sort key: an attribute ordered by its ORDERING rule (caseIgnoreOrderingMatch when the
   * schema gives none, as the ordering index does), ascending unless {@code reverse}.
   */
  public record SortKey(String attribute, boolean reverse) {}

  public VlvSpec {
    if (name == null || name.isBlank() || !name.matches("[A-Za-z0-9_.-]+")) {
      throw new IllegalArgumentException(
          "index-name: " + name + " (expected letters, digits, '.', '_' or '-')");
    }
    if (sortOrder.isEmpty()) {
      throw new IllegalArgumentException("sort-order of " + name + ": at least one key");
    }
    sortOrder = List.copyOf(sortOrder);
  }

  /** The tree name, {@code vlv.<name>}, as OpenDJ names it. */
  public String treeName() {
    return "vlv." + name;
  }

  /**
   * Reads OpenDJ's sort-order syntax: keys separated by spaces, each an attribute name preceded by
   * {@code +} (ascending, the default) or {@code -} (descending), e.g. {@code "+sn +givenName"}.
   */
  public static List<SortKey> parseSortOrder(String sortOrder) {
    List<SortKey> keys = new ArrayList<>();
    for (String token : sortOrder.trim().split("\\s+")) {
      if (token.isEmpty()) {
        continue;
      }
      boolean reverse = token.charAt(0) == '-';
      String attribute = token.charAt(0) == '+' || reverse ? token.substring(1) : token;
      if (!attribute.matches("[A-Za-z][A-Za-z0-9-]*")) {
        throw new IllegalArgumentException(
            "sort-order: " + token + " (expected +attribute or -attribute)");
      }
      keys.add(new SortKey(attribute, reverse));
    }
    if (keys.isEmpty()) {
      throw new IllegalArgumentException("sort-order: at least one key");
    }
    return keys;
  }
}
