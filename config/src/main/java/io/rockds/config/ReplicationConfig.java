package io.rockds.config;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The replication settings of a server ({@code cn=Replication,cn=config}), as {@code setup
 * --serverId --replicationPort --bootstrapReplicationServer} writes them. Absent: the server runs
 * alone and writes go straight to its backends.
 *
 * @param serverId this server's name in status and monitoring
 * @param host the address its replication listener binds and the others reach it at
 * @param port its replication port
 * @param bootstrapServers {@code host:port} of every server of the group at its first start (this
 *     one included)
 * @param writeTimeout how long a write waits for the group to commit it before unavailable (52)
 * @param electionTimeout how long without a leader before a server stands for election
 * @param snapshotInterval a snapshot (RocksDB checkpoints of the backends) every this many log
 *     entries; the log is purged behind it
 * @param logSegmentBytes the size of a Raft log segment file, the unit the log is purged in
 * @param joining whether this server joins a group that runs already ({@code dsrepl add-server}
 *     adds it) rather than forming a new one with the bootstrap servers at its first start
 */
public record ReplicationConfig(
    String serverId,
    String host,
    int port,
    List<String> bootstrapServers,
    Duration writeTimeout,
    Duration electionTimeout,
    long snapshotInterval,
    long logSegmentBytes,
    boolean joining) {
  public static final DN DN = ConfigDns.parse("cn=Replication,cn=config");
  public static final String OBJECT_CLASS = "ds-cfg-replication-server";
  public static final Duration DEFAULT_WRITE_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_ELECTION_TIMEOUT = Duration.ofSeconds(1);
  public static final long DEFAULT_SNAPSHOT_INTERVAL = 100_000;
  public static final long DEFAULT_LOG_SEGMENT_BYTES = 32L << 20;

  public ReplicationConfig {
    bootstrapServers = List.copyOf(bootstrapServers);
  }

  /** Settings with the default snapshot interval and log segment size. */
  public ReplicationConfig(
      String serverId,
      String host,
      int port,
      List<String> bootstrapServers,
      Duration writeTimeout,
      Duration electionTimeout) {
    this(
        serverId,
        host,
        port,
        bootstrapServers,
        writeTimeout,
        electionTimeout,
        DEFAULT_SNAPSHOT_INTERVAL,
        DEFAULT_LOG_SEGMENT_BYTES,
        false);
  }

  /** {@code host:port} of this server's replication listener. */
  public String address() {
    return host + ":" + port;
  }

  /** The replication settings in {@code store}, or null when the server is not replicated. */
  public static ReplicationConfig read(ConfigStore store) throws ConfigException {
    Entry entry = store.get(DN);
    if (entry == null) {
      return null;
    }
    String id = entry.getAttributeValue("ds-cfg-server-id");
    String host = entry.getAttributeValue("ds-cfg-replication-host");
    Integer port = entry.getAttributeValueAsInteger("ds-cfg-replication-port");
    if (id == null || port == null || port <= 0 || port > 65535) {
      throw new ConfigException(
          store.file()
              + ": "
              + DN
              + " needs ds-cfg-server-id and a ds-cfg-replication-port between 1 and 65535");
    }
    host = host == null ? "127.0.0.1" : host;
    List<String> servers = new ArrayList<>();
    String[] values = entry.getAttributeValues("ds-cfg-bootstrap-replication-server");
    for (String value : values == null ? new String[0] : values) {
      servers.add(value.trim());
    }
    if (!servers.contains(host + ":" + port)) {
      servers.add(host + ":" + port);
    }
    return new ReplicationConfig(
        id,
        host,
        port,
        servers,
        millis(entry, "ds-cfg-write-timeout-ms", DEFAULT_WRITE_TIMEOUT),
        millis(entry, "ds-cfg-election-timeout-ms", DEFAULT_ELECTION_TIMEOUT),
        positive(entry, "ds-cfg-snapshot-interval", DEFAULT_SNAPSHOT_INTERVAL),
        positive(entry, "ds-cfg-log-segment-size", DEFAULT_LOG_SEGMENT_BYTES),
        Boolean.TRUE.equals(entry.getAttributeValueAsBoolean("ds-cfg-join-replication-group")));
  }

  private static long positive(Entry entry, String attribute, long otherwise) {
    Long value = entry.getAttributeValueAsLong(attribute);
    return value == null || value <= 0 ? otherwise : value;
  }

  private static Duration millis(Entry entry, String attribute, Duration otherwise) {
    Long value = entry.getAttributeValueAsLong(attribute);
    return value == null || value <= 0 ? otherwise : Duration.ofMillis(value);
  }

  /** The entry setup writes. */
  public Entry toEntry() {
    Entry entry =
        new Entry(
            DN,
            new com.unboundid.ldap.sdk.Attribute("objectClass", "top", OBJECT_CLASS),
            new com.unboundid.ldap.sdk.Attribute("cn", "Replication"),
            new com.unboundid.ldap.sdk.Attribute("ds-cfg-server-id", serverId),
            new com.unboundid.ldap.sdk.Attribute("ds-cfg-replication-host", host),
            new com.unboundid.ldap.sdk.Attribute("ds-cfg-replication-port", String.valueOf(port)),
            new com.unboundid.ldap.sdk.Attribute(
                "ds-cfg-bootstrap-replication-server", bootstrapServers),
            new com.unboundid.ldap.sdk.Attribute(
                "ds-cfg-write-timeout-ms", String.valueOf(writeTimeout.toMillis())),
            new com.unboundid.ldap.sdk.Attribute(
                "ds-cfg-election-timeout-ms", String.valueOf(electionTimeout.toMillis())),
            new com.unboundid.ldap.sdk.Attribute(
                "ds-cfg-snapshot-interval", String.valueOf(snapshotInterval)),
            new com.unboundid.ldap.sdk.Attribute(
                "ds-cfg-log-segment-size", String.valueOf(logSegmentBytes)),
            new com.unboundid.ldap.sdk.Attribute(
                "ds-cfg-join-replication-group", String.valueOf(joining)));
    return entry;
  }
}
