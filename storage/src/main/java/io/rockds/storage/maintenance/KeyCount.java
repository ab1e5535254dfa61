package io.rockds.storage.maintenance;

import io.rockds.storage.IndexKey;

/** An index key and the number of entries holding it. */
public record KeyCount(IndexKey key, long count) {}
