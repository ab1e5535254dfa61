package io.rockds.config;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPException;
import java.util.ArrayList;
import java.util.List;

/**
 * A RocksDB backend ({@code ds-cfg-backend-id=<id>,cn=Backends,cn=config}) and its indexes.
 *
 * @param dbDirectory relative to the instance directory unless absolute
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
    List<IndexConfig> indexes) {

  static BackendConfig from(ConfigEntry e, List<Entry> indexEntries) throws ConfigException {
    String id = e.requiredString("backend-id");
    List<DN> baseDns = new ArrayList<>();
    for (String s : e.strings("base-dn")) {
      try {
        baseDns.add(new DN(s));
      } catch (LDAPException ex) {
        throw new ConfigException(e.entry().getDN() + ": ds-cfg-base-dn: \"" + s + "\" (expected: a DN): "
            + ex.getExceptionMessage());
      }
    }
    if (baseDns.isEmpty()) {
      throw new ConfigException(e.entry().getDN() + ": ds-cfg-base-dn is required");
    }
    List<IndexConfig> indexes = new ArrayList<>();
    for (Entry index : indexEntries) {
      indexes.add(IndexConfig.from(new ConfigEntry(index)));
    }
    String compression = e.string("compression", "lz4-zstd");
    if (!List.of("lz4-zstd", "lz4", "zstd", "none").contains(compression)) {
      throw new ConfigException(e.entry().getDN() + ": ds-cfg-compression: \"" + compression
          + "\" (expected: lz4-zstd, lz4, zstd or none)");
    }
    return new BackendConfig(id, e.bool("enabled", true), baseDns, e.string("db-directory", "db/" + id),
        (int) e.integer("index-entry-limit", 4000, 0, Integer.MAX_VALUE),
        !e.bool("db-txn-no-sync", false),
        e.integer("entry-cache-size", 64L << 20, 0, Long.MAX_VALUE),
        e.integer("db-cache-size", 128L << 20, 1L << 20, Long.MAX_VALUE),
        compression, List.copyOf(indexes));
  }
}
