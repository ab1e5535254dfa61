package io.rockds.storage;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The attribute indexes of one entry container, by tree name and by attribute. Immutable maps,
 * replaced whole when an index is added, so readers need no lock.
 */
final class ContainerIndexes {
  private volatile Map<String, AttributeIndex> byName;
  private volatile Map<String, List<AttributeIndex>> byAttribute;

  ContainerIndexes(Map<String, AttributeIndex> indexes) {
    publish(indexes);
  }

  private void publish(Map<String, AttributeIndex> indexes) {
    Map<String, List<AttributeIndex>> attributes = new LinkedHashMap<>();
    for (AttributeIndex index : indexes.values()) {
      attributes
          .computeIfAbsent(index.attribute().toLowerCase(Locale.ROOT), a -> new ArrayList<>())
          .add(index);
    }
    attributes.replaceAll((attribute, list) -> List.copyOf(list));
    byAttribute = Collections.unmodifiableMap(attributes);
    byName = Collections.unmodifiableMap(new LinkedHashMap<>(indexes));
  }

  /** Publishes one more index; the caller holds the structure lock exclusively. */
  void add(AttributeIndex index) {
    Map<String, AttributeIndex> indexes = new LinkedHashMap<>(byName);
    indexes.put(index.name(), index);
    publish(indexes);
  }

  Collection<AttributeIndex> all() {
    return byName.values();
  }

  /** The tree names, e.g. {@code sn.caseIgnoreMatch}. */
  Collection<String> names() {
    return byName.keySet();
  }

  AttributeIndex named(String name) {
    return byName.get(name);
  }

  /** The index of {@code attribute} of that type, or null if there is none. */
  AttributeIndex of(String attribute, IndexType type) {
    for (AttributeIndex index :
        byAttribute.getOrDefault(attribute.toLowerCase(Locale.ROOT), List.of())) {
      if (index.indexType() == type) {
        return index;
      }
    }
    return null;
  }

  /**
   * The indexes a write of entry {@code id} must update: all but those a rebuild has yet to reach.
   */
  List<AttributeIndex> maintainedFor(long id) {
    Map<String, AttributeIndex> indexes = byName;
    List<AttributeIndex> maintained = new ArrayList<>(indexes.size());
    for (AttributeIndex index : indexes.values()) {
      if (index.isMaintainedFor(id)) {
        maintained.add(index);
      }
    }
    return maintained;
  }
}
