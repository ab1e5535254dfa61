package io.rockds.storage;

import java.util.Set;

/** The keys of one index an entry loses and gains in a write. */
record KeyChange(Set<IndexKey> lost, Set<IndexKey> gained) {
  static final KeyChange NONE = new KeyChange(Set.of(), Set.of());
}
