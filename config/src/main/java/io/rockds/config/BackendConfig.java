package io.rockds.config;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import io.rockds.config.model.ConfigModel;
import io.rockds.config.model.PropertyReader;
import java.util.ArrayList;
import java.util.List;

/**
 * A RocksDB backend ({@code ds-cfg-backend-id=<id>,cn=Backends,cn=config}), its attribute and VLV
 * indexes; defaults and descriptions are in {@link ConfigModel#BACKEND}.
 *
 * @param dbDirectory relative to the instance directory unless absolute
 * @param preloadMillis how long the block cache is filled after start (0 = not at all)
 */
public record BackendConfig(
    String id,
    boolean enabled,
    List<DN> baseDns,
    String dbDirectory,
    int indexEntryLimit,
    boolean syncWrites,
    long entryCacheBytes,
    long blockCacheBytes,
    String compression,
    long preloadMillis,
    List<IndexConfig> indexes,
    List<VlvIndexConfig> vlvIndexes) {

  /** Reads entries the model's validation accepted. */
  static BackendConfig from(ConfigEntry e, List<Entry> indexEntries, List<Entry> vlvEntries) {
    PropertyReader r = new PropertyReader(e.entry(), ConfigModel.BACKEND);
    String id = r.string("backend-id");
    List<DN> baseDns = new ArrayList<>();
    r.strings("base-dn").forEach(s -> baseDns.add(ConfigDns.parse(s)));
    List<IndexConfig> indexes = new ArrayList<>();
    for (Entry index : indexEntries) {
      indexes.add(IndexConfig.from(new ConfigEntry(index)));
    }
    String dbDirectory = r.string("db-directory");
    return new BackendConfig(
        id,
        r.bool("enabled"),
        List.copyOf(baseDns),
        dbDirectory != null ? dbDirectory : "db/" + id,
        r.integer("index-entry-limit").intValue(),
        !r.bool("db-txn-no-sync"),
        r.integer("entry-cache-size"),
        r.integer("db-cache-size"),
        r.lowerCase("compression"),
        r.millis("preload-time-limit"),
        List.copyOf(indexes),
        vlvEntries.stream().map(v -> VlvIndexConfig.from(new ConfigEntry(v))).toList());
  }
}
