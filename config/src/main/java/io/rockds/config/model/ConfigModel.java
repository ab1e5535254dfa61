package io.rockds.config.model;

import static io.rockds.config.model.ApplyMode.LIVE;
import static io.rockds.config.model.ApplyMode.LIVE_REBUILD_TIGHTENS;
import static io.rockds.config.model.ApplyMode.REBUILD_INDEX;
import static io.rockds.config.model.ApplyMode.RESTART;

import com.unboundid.ldap.sdk.Entry;
import io.rockds.config.ConfigDns;
import io.rockds.config.InitialConfig;
import io.rockds.config.model.Syntax.BooleanSyntax;
import io.rockds.config.model.Syntax.DnSyntax;
import io.rockds.config.model.Syntax.EnumSyntax;
import io.rockds.config.model.Syntax.IntegerSyntax;
import io.rockds.config.model.Syntax.StringSyntax;
import java.util.List;
import java.util.Optional;

/**
 * Every kind of configuration object RockDS has, with its properties. Names, object classes and
 * property names follow OpenDJ's so that operators' {@code dsconfig} commands and hand-written
 * {@code config.ldif} fragments carry over.
 */
public final class ConfigModel {
  private static final Syntax COUNT = new IntegerSyntax(0, Integer.MAX_VALUE);
  private static final Syntax BOOLEAN = new BooleanSyntax();
  private static final Syntax STRING = new StringSyntax();
  private static final Syntax DN = new DnSyntax();
  private static final Syntax SIZE = Syntax.SIZE;
  private static final Syntax DURATION = Syntax.DURATION;

  /** The record types an access log line can have, as {@code log-record-type} names them. */
  public static final List<String> LOG_RECORD_TYPES =
      List.of(
          "abandon",
          "add",
          "bind",
          "compare",
          "delete",
          "extended",
          "modify",
          "rename",
          "search",
          "unbind",
          "connect",
          "disconnect");

  public static final ObjectDefinition GLOBAL =
      new ObjectDefinition(
          "global-configuration",
          "ds-cfg-root-config",
          null,
          null,
          null,
          parent -> ConfigDns.CONFIG,
          List.of(),
          List.of(
              PropertyDefinition.of(
                  "size-limit",
                  COUNT,
                  "1000",
                  LIVE,
                  "Entries a search may return (0 = no limit); root users are exempt."),
              PropertyDefinition.of(
                  "time-limit",
                  COUNT,
                  "60",
                  LIVE,
                  "Seconds a search may run (0 = no limit); root users are exempt."),
              PropertyDefinition.of(
                  "lookthrough-limit",
                  COUNT,
                  "5000",
                  LIVE,
                  "Candidate entries a search may examine (0 = no limit)."),
              PropertyDefinition.of(
                  "allow-anonymous-read",
                  BOOLEAN,
                  "false",
                  LIVE,
                  "Whether anonymous clients may read and search entries (never passwords)."),
              PropertyDefinition.of(
                  "num-worker-threads",
                  new IntegerSyntax(0, 4096),
                  "0",
                  RESTART,
                  "Threads running operations (0 = twice the cores, at least 8)."),
              PropertyDefinition.of(
                  "default-password-policy",
                  DN,
                  "cn=Default Password Policy,cn=Password Policies,cn=config",
                  LIVE,
                  "The password policy of users whose entry names none."),
              PropertyDefinition.of(
                  "max-connections",
                  COUNT,
                  "0",
                  RESTART,
                  "Connections open at once across every listener (0 = no limit)."),
              PropertyDefinition.of(
                  "max-filter-depth",
                  new IntegerSyntax(1, 100),
                  "32",
                  LIVE,
                  "Nesting depth of a search filter; deeper filters get adminLimitExceeded."),
              PropertyDefinition.of(
                  "max-filter-components",
                  new IntegerSyntax(1, 1_000_000),
                  "1024",
                  LIVE,
                  "Components of one search filter."),
              PropertyDefinition.of(
                  "max-substring-components",
                  new IntegerSyntax(1, 10_000),
                  "32",
                  LIVE,
                  "Components of one substring assertion."),
              PropertyDefinition.of(
                  "max-add-attributes",
                  new IntegerSyntax(1, 1_000_000),
                  "1000",
                  LIVE,
                  "Attributes of one add request."),
              PropertyDefinition.of(
                  "max-add-values",
                  new IntegerSyntax(1, Integer.MAX_VALUE),
                  "100000",
                  LIVE,
                  "Values of one add request, all attributes together."),
              PropertyDefinition.of(
                  "max-requested-attributes",
                  new IntegerSyntax(1, 1_000_000),
                  "1000",
                  LIVE,
                  "Attributes one search may ask for."),
              PropertyDefinition.of(
                  "max-dn-length",
                  new IntegerSyntax(64, 8 * 1024 * 1024),
                  "8192",
                  LIVE,
                  "Characters of a DN a request names (entry, search base, bind DN, new superior)."),
              PropertyDefinition.of(
                  "max-dn-rdns",
                  new IntegerSyntax(2, 8 * 1024 * 1024),
                  "128",
                  LIVE,
                  "RDNs of a DN a request names; deeper DNs get adminLimitExceeded before any lookup."),
              PropertyDefinition.of(
                  "shutdown-grace-period",
                  new IntegerSyntax(0, 3600),
                  "10",
                  LIVE,
                  "Seconds in-flight operations get to finish at shutdown."),
              PropertyDefinition.of(
                  "http-port",
                  new IntegerSyntax(-1, 65535),
                  "-1",
                  RESTART,
                  "Port of the HTTP endpoint serving /metrics (Prometheus) and /health (-1 = none, 0 = any free port)."),
              PropertyDefinition.of(
                  "http-listen-address",
                  STRING,
                  "127.0.0.1",
                  RESTART,
                  "Address of the HTTP endpoint; loopback unless Prometheus scrapes from elsewhere."),
              PropertyDefinition.of(
                  "metrics-enabled",
                  BOOLEAN,
                  "true",
                  RESTART,
                  "Whether operations update the meters (off only to measure what they cost)."),
              PropertyDefinition.of(
                  "memory-budget",
                  new IntegerSyntax(0, Long.MAX_VALUE),
                  "0",
                  RESTART,
                  "Bytes of memory the server may use (0 = half the machine's): a quarter is the JVM heap, 40 % of which"
                      + " holds the entry caches, half the RocksDB block caches, the rest memtables and the page cache."),
              PropertyDefinition.of(
                  "max-psearches",
                  COUNT,
                  "1000",
                  LIVE,
                  "Persistent searches open at once on the server (0 = persistent search refused)."),
              PropertyDefinition.of(
                  "max-psearches-per-connection",
                  COUNT,
                  "8",
                  LIVE,
                  "Persistent searches open at once on one connection."),
              PropertyDefinition.of(
                  "max-anonymous-psearches",
                  COUNT,
                  "16",
                  LIVE,
                  "Persistent searches of anonymous clients open at once on the server."),
              PropertyDefinition.of(
                  "psearch-queue-size",
                  new IntegerSyntax(1, 1_000_000),
                  "1000",
                  LIVE,
                  "Changes a persistent search may hold for a client that does not read; one more ends the"
                      + " search with adminLimitExceeded."),
              PropertyDefinition.of(
                  "changelog-purge-delay",
                  DURATION,
                  "3 d",
                  LIVE,
                  "How long cn=changelog keeps a change; older ones are purged (the newest one is always"
                      + " kept).")),
          "Server-wide settings: limits, anonymous access, worker threads.");

  public static final ObjectDefinition BACKEND =
      new ObjectDefinition(
          "backend",
          "ds-cfg-backend",
          "ds-cfg-backend-id",
          "--backend-name",
          null,
          parent -> ConfigDns.BACKENDS,
          List.of(new TypeDefinition("rocksdb", "ds-cfg-rocksdb-backend", List.of())),
          List.of(
              PropertyDefinition.of("backend-id", STRING, null, RESTART, "The backend's name.")
                  .asReadOnly(),
              PropertyDefinition.of(
                  "enabled", BOOLEAN, "true", RESTART, "Whether the backend is opened at start."),
              PropertyDefinition.of(
                      "base-dn", DN, null, RESTART, "The naming contexts the backend holds.")
                  .asMultiValued()
                  .asMandatory(),
              PropertyDefinition.of(
                  "db-directory",
                  STRING,
                  null,
                  RESTART,
                  "RocksDB directory, relative to the instance (default db/<backend-id>)."),
              PropertyDefinition.of(
                  "index-entry-limit",
                  COUNT,
                  "4000",
                  LIVE_REBUILD_TIGHTENS,
                  "Entry IDs an index key may list before it is kept as a count only (0 = unlimited); indexes "
                      + "without their own limit inherit it."),
              PropertyDefinition.of(
                  "db-txn-no-sync",
                  BOOLEAN,
                  "false",
                  RESTART,
                  "Skip the WAL sync at commit: faster writes, the last ones lost on power failure."),
              PropertyDefinition.of(
                  "entry-cache-size",
                  new IntegerSyntax(-1, Long.MAX_VALUE),
                  "-1",
                  RESTART,
                  "Bytes of decoded entries kept in memory: every entry (0 = none), or -1 = this backend's share of the memory budget, for large entries (groups) only."),
              PropertyDefinition.of(
                  "db-cache-size",
                  new IntegerSyntax(-1, Long.MAX_VALUE),
                  "-1",
                  RESTART,
                  "Bytes of RocksDB block cache (at least 1 MiB; -1 = this backend's share of the memory budget)."),
              PropertyDefinition.of(
                  "compression",
                  new EnumSyntax(List.of("lz4-zstd", "lz4", "zstd", "none")),
                  "lz4-zstd",
                  RESTART,
                  "Block compression: lz4 for upper levels and zstd for the last, or one of them."),
              PropertyDefinition.of(
                  "preload-time-limit",
                  DURATION,
                  "1 m",
                  RESTART,
                  "After start, read the database into the block cache for at most this long, while"
                      + " serving (0 = no preload); it also stops when the cache is nearly full.")),
          "A RocksDB database holding one or more naming contexts.");

  public static final ObjectDefinition BACKEND_INDEX =
      new ObjectDefinition(
          "backend-index",
          "ds-cfg-backend-index",
          "ds-cfg-attribute",
          "--index-name",
          BACKEND,
          ConfigDns::indexes,
          List.of(new TypeDefinition("generic", "ds-cfg-backend-index", List.of())),
          List.of(
              PropertyDefinition.of(
                      "attribute", STRING, null, REBUILD_INDEX, "The indexed attribute.")
                  .asReadOnly(),
              PropertyDefinition.of(
                      "index-type",
                      new EnumSyntax(
                          List.of("equality", "presence", "substring", "ordering", "approximate")),
                      null,
                      REBUILD_INDEX,
                      "The kinds of filter the index serves.")
                  .asMultiValued()
                  .asMandatory(),
              PropertyDefinition.of(
                  "index-entry-limit",
                  COUNT,
                  null,
                  LIVE_REBUILD_TIGHTENS,
                  "This index's own entry limit (default: the backend's index-entry-limit)."),
              PropertyDefinition.of(
                  "substring-length",
                  new IntegerSyntax(3, 64),
                  "6",
                  REBUILD_INDEX,
                  "Length of the substrings a substring index stores.")),
          "An attribute index of a backend.");

  public static final ObjectDefinition BACKEND_VLV_INDEX =
      new ObjectDefinition(
          "backend-vlv-index",
          "ds-cfg-backend-vlv-index",
          "ds-cfg-name",
          "--index-name",
          BACKEND,
          ConfigDns::vlvIndexes,
          List.of(new TypeDefinition("generic", "ds-cfg-backend-vlv-index", List.of())),
          List.of(
              PropertyDefinition.of("name", STRING, null, REBUILD_INDEX, "The index name.")
                  .asReadOnly(),
              PropertyDefinition.of(
                      "base-dn", DN, null, REBUILD_INDEX, "The base DN of the searches it serves.")
                  .asMandatory(),
              PropertyDefinition.of(
                      "scope",
                      new EnumSyntax(
                          List.of(
                              "base-object",
                              "single-level",
                              "subordinate-subtree",
                              "whole-subtree")),
                      null,
                      REBUILD_INDEX,
                      "The scope of the searches it serves.")
                  .asMandatory(),
              PropertyDefinition.of(
                      "filter",
                      STRING,
                      null,
                      REBUILD_INDEX,
                      "The filter of the searches it serves, e.g. (objectClass=person).")
                  .asMandatory(),
              PropertyDefinition.of(
                      "sort-order",
                      STRING,
                      null,
                      REBUILD_INDEX,
                      "Sort keys, most significant first, each +attribute (ascending) or"
                          + " -attribute (descending), e.g. \"+sn +givenName\".")
                  .asMandatory()),
          "A virtual list view index: the entries of one base DN, scope and filter in one sort"
              + " order, for VLV searches.");

  public static final ObjectDefinition CONNECTION_HANDLER =
      new ObjectDefinition(
          "connection-handler",
          "ds-cfg-connection-handler",
          "cn",
          "--handler-name",
          null,
          parent -> ConfigDns.CONNECTION_HANDLERS,
          List.of(new TypeDefinition("ldap", "ds-cfg-ldap-connection-handler", List.of())),
          List.of(
              PropertyDefinition.of(
                  "enabled", BOOLEAN, "true", RESTART, "Whether the listener is started."),
              PropertyDefinition.of(
                  "listen-address", STRING, "127.0.0.1", RESTART, "Address to listen on."),
              PropertyDefinition.of(
                      "listen-port",
                      new IntegerSyntax(0, 65535),
                      null,
                      RESTART,
                      "Port to listen on (0 = any free port).")
                  .asMandatory(),
              PropertyDefinition.of(
                  "use-ssl", BOOLEAN, "false", RESTART, "LDAPS: TLS from the first byte."),
              PropertyDefinition.of(
                  "allow-start-tls",
                  BOOLEAN,
                  "true",
                  RESTART,
                  "Offer StartTLS on a plain listener."),
              PropertyDefinition.of(
                  "max-request-size-anonymous",
                  new IntegerSyntax(1024, Integer.MAX_VALUE),
                  "262144",
                  RESTART,
                  "Largest request, in bytes, accepted before a client binds."),
              PropertyDefinition.of(
                  "max-request-size",
                  new IntegerSyntax(1024, Integer.MAX_VALUE),
                  "8388608",
                  RESTART,
                  "Largest request, in bytes, accepted from a bound client."),
              PropertyDefinition.of(
                  "max-connections", COUNT, "0", RESTART, "Concurrent connections (0 = no limit)."),
              PropertyDefinition.of(
                  "max-outstanding-requests",
                  new IntegerSyntax(1, 100_000),
                  "100",
                  RESTART,
                  "Requests of one connection queued or running at once; past it the connection is not read."),
              PropertyDefinition.of(
                  "request-read-timeout",
                  COUNT,
                  "30000",
                  RESTART,
                  "Milliseconds a client may take to send the TLS handshake and first request, then each request."),
              PropertyDefinition.of(
                  "idle-time-limit",
                  COUNT,
                  "0",
                  RESTART,
                  "Seconds an idle connection is kept (0 = forever).")),
          "An LDAP or LDAPS listener.");

  private static final List<PropertyDefinition> LOG_FILE_PROPERTIES =
      List.of(
          PropertyDefinition.of("enabled", BOOLEAN, null, LIVE, "Whether the publisher writes.")
              .asMandatory(),
          PropertyDefinition.of(
                  "log-file", STRING, null, LIVE, "The log file, relative to the instance.")
              .asMandatory(),
          PropertyDefinition.of(
              "asynchronous",
              BOOLEAN,
              "true",
              LIVE,
              "Write from a background thread through a bounded queue; records that do not fit are dropped and counted."),
          PropertyDefinition.of(
              "queue-size",
              new IntegerSyntax(1, 1_000_000),
              "5000",
              LIVE,
              "Records the asynchronous queue holds."),
          PropertyDefinition.of(
              "rotation-size",
              SIZE,
              "100 mb",
              LIVE,
              "Rotate the file when it reaches this size (0 = never)."),
          PropertyDefinition.of(
              "rotation-interval",
              DURATION,
              "0",
              LIVE,
              "Rotate the file when it is this old (0 = never), e.g. 24 h."),
          PropertyDefinition.of(
              "retention-file-count",
              new IntegerSyntax(0, 100_000),
              "10",
              LIVE,
              "Rotated files kept; older ones are deleted (0 = keep all)."));

  public static final ObjectDefinition LOG_PUBLISHER =
      new ObjectDefinition(
          "log-publisher",
          "ds-cfg-log-publisher",
          "cn",
          "--publisher-name",
          null,
          parent -> ConfigDns.LOGGERS,
          List.of(
              new TypeDefinition(
                  "file-based-access",
                  "ds-cfg-file-based-access-log-publisher",
                  List.of(
                      PropertyDefinition.of(
                          "log-format",
                          new EnumSyntax(List.of("combined", "json")),
                          "combined",
                          LIVE,
                          "combined: OpenDJ's one line per operation; json: one JSON object per line."),
                      PropertyDefinition.of(
                          "filtering-policy",
                          new EnumSyntax(List.of("no-filtering", "inclusive", "exclusive")),
                          "no-filtering",
                          LIVE,
                          "inclusive: log only records matching a filtering criteria; exclusive: log all but those."))),
              new TypeDefinition(
                  "file-based-error",
                  "ds-cfg-file-based-error-log-publisher",
                  List.of(
                      PropertyDefinition.of(
                          "log-level",
                          new EnumSyntax(List.of("error", "warning", "info")),
                          "info",
                          LIVE,
                          "The least severe message written.")))),
          LOG_FILE_PROPERTIES,
          "An access or error log file.");

  public static final ObjectDefinition ACCESS_LOG_FILTERING_CRITERIA =
      new ObjectDefinition(
          "access-log-filtering-criteria",
          "ds-cfg-access-log-filtering-criteria",
          "cn",
          "--criteria-name",
          LOG_PUBLISHER,
          ConfigDns::filteringCriteria,
          List.of(new TypeDefinition("generic", "ds-cfg-access-log-filtering-criteria", List.of())),
          List.of(
              PropertyDefinition.of(
                      "log-record-type",
                      new EnumSyntax(LOG_RECORD_TYPES),
                      null,
                      LIVE,
                      "Record types that match (default: all).")
                  .asMultiValued(),
              PropertyDefinition.of(
                      "client-address-equal-to",
                      STRING,
                      null,
                      LIVE,
                      "Client IP addresses that match (default: all).")
                  .asMultiValued(),
              PropertyDefinition.of(
                      "client-address-not-equal-to",
                      STRING,
                      null,
                      LIVE,
                      "Client IP addresses that never match.")
                  .asMultiValued(),
              PropertyDefinition.of(
                      "user-dn-equal-to",
                      DN,
                      null,
                      LIVE,
                      "Bound users (and their subordinates) that match (default: all).")
                  .asMultiValued(),
              PropertyDefinition.of(
                      "user-dn-not-equal-to",
                      DN,
                      null,
                      LIVE,
                      "Bound users (and their subordinates) that never match.")
                  .asMultiValued(),
              PropertyDefinition.of(
                      "result-code-equal-to",
                      new IntegerSyntax(0, 65535),
                      null,
                      LIVE,
                      "Result codes that match (default: all).")
                  .asMultiValued(),
              PropertyDefinition.of(
                      "result-code-not-equal-to",
                      new IntegerSyntax(0, 65535),
                      null,
                      LIVE,
                      "Result codes that never match.")
                  .asMultiValued(),
              PropertyDefinition.of(
                  "response-etime-greater-than",
                  new IntegerSyntax(0, Long.MAX_VALUE),
                  null,
                  LIVE,
                  "Match only operations that took longer than this many milliseconds."),
              PropertyDefinition.of(
                  "response-etime-less-than",
                  new IntegerSyntax(0, Long.MAX_VALUE),
                  null,
                  LIVE,
                  "Match only operations that took less than this many milliseconds."),
              PropertyDefinition.of(
                  "search-response-is-indexed",
                  BOOLEAN,
                  null,
                  LIVE,
                  "Match only searches that were (true) or were not (false) indexed."),
              PropertyDefinition.of(
                  "search-response-nentries-greater-than",
                  COUNT,
                  null,
                  LIVE,
                  "Match only searches that returned more entries than this."),
              PropertyDefinition.of(
                  "search-response-nentries-less-than",
                  COUNT,
                  null,
                  LIVE,
                  "Match only searches that returned fewer entries than this.")),
          "Which records an access log publisher with an inclusive or exclusive policy selects.");

  public static final ObjectDefinition PASSWORD_POLICY =
      new ObjectDefinition(
          "password-policy",
          "ds-cfg-password-policy",
          "cn",
          "--policy-name",
          null,
          parent -> ConfigDns.PASSWORD_POLICIES,
          List.of(new TypeDefinition("password-policy", "ds-cfg-password-policy", List.of())),
          List.of(
              PropertyDefinition.of(
                  "password-attribute",
                  STRING,
                  "userPassword",
                  RESTART,
                  "The attribute holding passwords."),
              PropertyDefinition.of(
                      "default-password-storage-scheme",
                      DN,
                      null,
                      LIVE,
                      "The schemes new passwords are hashed with.")
                  .asMultiValued()
                  .asMandatory(),
              PropertyDefinition.of(
                  "allow-pre-encoded-passwords",
                  BOOLEAN,
                  "false",
                  LIVE,
                  "Whether users may send already-hashed passwords (administrators always may, with an enabled scheme)."),
              PropertyDefinition.of(
                  "require-secure-authentication",
                  BOOLEAN,
                  "false",
                  LIVE,
                  "Whether passwords are accepted for authentication only over LDAPS or StartTLS."),
              PropertyDefinition.of(
                      "password-validator",
                      STRING,
                      null,
                      LIVE,
                      "The password validators (names or DNs) a new clear-text password must pass.")
                  .asMultiValued(),
              PropertyDefinition.of(
                  "min-password-length",
                  COUNT,
                  "0",
                  LIVE,
                  "The shortest password accepted on a change (0: any; see also the length-based validator)."),
              PropertyDefinition.of(
                  "password-history-count",
                  COUNT,
                  "0",
                  LIVE,
                  "How many previous passwords a user may not reuse (0: none kept)."),
              PropertyDefinition.of(
                  "max-password-age",
                  DURATION,
                  "0",
                  LIVE,
                  "How long a password stays valid after it is set (0: forever)."),
              PropertyDefinition.of(
                  "password-expiration-warning-interval",
                  DURATION,
                  "0",
                  LIVE,
                  "How long before expiry binds carry a warning (0: no warning)."),
              PropertyDefinition.of(
                  "lockout-failure-count",
                  COUNT,
                  "0",
                  LIVE,
                  "Failed binds in a row that lock the account (0: never locked)."),
              PropertyDefinition.of(
                  "lockout-duration",
                  DURATION,
                  "0",
                  LIVE,
                  "How long a locked account stays locked (0: until an administrator resets it)."),
              PropertyDefinition.of(
                  "force-change-on-reset",
                  BOOLEAN,
                  "false",
                  LIVE,
                  "Whether a password set by an administrator must be changed at the next bind."),
              PropertyDefinition.of(
                  "allow-user-password-changes",
                  BOOLEAN,
                  "true",
                  LIVE,
                  "Whether users may change their own password."),
              PropertyDefinition.of(
                  "password-change-requires-current-password",
                  BOOLEAN,
                  "false",
                  LIVE,
                  "Whether a user changing their own password must give the current one.")),
          "How passwords are stored and checked.");

  public static final ObjectDefinition PASSWORD_STORAGE_SCHEME =
      new ObjectDefinition(
          "password-storage-scheme",
          "ds-cfg-password-storage-scheme",
          "cn",
          "--scheme-name",
          null,
          parent -> ConfigDns.PASSWORD_STORAGE_SCHEMES,
          List.of(new TypeDefinition("generic", "ds-cfg-password-storage-scheme", List.of())),
          List.of(
              PropertyDefinition.of(
                      "enabled", BOOLEAN, null, LIVE, "Whether the scheme hashes and verifies.")
                  .asMandatory(),
              PropertyDefinition.of(
                      "scheme-name",
                      STRING,
                      null,
                      RESTART,
                      "The {SCHEME} prefix of values it stores, e.g. SSHA512.")
                  .asReadOnly()),
          "A password hashing scheme.");

  public static final ObjectDefinition PASSWORD_VALIDATOR =
      new ObjectDefinition(
          "password-validator",
          "ds-cfg-password-validator",
          "cn",
          "--validator-name",
          null,
          parent -> ConfigDns.PASSWORD_VALIDATORS,
          List.of(
              new TypeDefinition(
                  "length-based",
                  "ds-cfg-length-based-password-validator",
                  List.of(
                      PropertyDefinition.of(
                          "min-password-length",
                          COUNT,
                          "8",
                          LIVE,
                          "The fewest characters a password may have (0: no minimum)."),
                      PropertyDefinition.of(
                          "max-password-length",
                          COUNT,
                          "0",
                          LIVE,
                          "The most characters a password may have (0: no maximum)."))),
              new TypeDefinition(
                  "character-set",
                  "ds-cfg-character-set-password-validator",
                  List.of(
                      PropertyDefinition.of(
                              "character-set",
                              STRING,
                              null,
                              LIVE,
                              "<count>:<characters>: a password needs at least count characters of the set,"
                                  + " e.g. 1:0123456789.")
                          .asMultiValued(),
                      PropertyDefinition.of(
                          "allow-unclassified-characters",
                          BOOLEAN,
                          "true",
                          LIVE,
                          "Whether a password may hold characters of none of the sets."),
                      PropertyDefinition.of(
                          "min-character-sets",
                          COUNT,
                          "0",
                          LIVE,
                          "How many of the sets a password must satisfy (0: all of them)."))),
              new TypeDefinition(
                  "dictionary",
                  "ds-cfg-dictionary-password-validator",
                  List.of(
                      PropertyDefinition.of(
                          "dictionary-file",
                          STRING,
                          null,
                          LIVE,
                          "Word list, one per line, relative to the instance (default: a built-in list of common"
                              + " passwords)."),
                      PropertyDefinition.of(
                          "case-sensitive-validation",
                          BOOLEAN,
                          "false",
                          LIVE,
                          "Whether the comparison with the words is case-sensitive."),
                      PropertyDefinition.of(
                          "test-reversed-password",
                          BOOLEAN,
                          "true",
                          LIVE,
                          "Whether the password read backwards is checked too."),
                      PropertyDefinition.of(
                          "check-substrings",
                          BOOLEAN,
                          "false",
                          LIVE,
                          "Whether a word of at least min-substring-length characters inside the password is refused."),
                      PropertyDefinition.of(
                          "min-substring-length",
                          new IntegerSyntax(3, 1000),
                          "5",
                          LIVE,
                          "The shortest word check-substrings looks for."))),
              new TypeDefinition(
                  "attribute-value",
                  "ds-cfg-attribute-value-password-validator",
                  List.of(
                      PropertyDefinition.of(
                              "match-attribute",
                              STRING,
                              null,
                              LIVE,
                              "Attributes of the user's entry the password may not equal (default: all user attributes).")
                          .asMultiValued(),
                      PropertyDefinition.of(
                          "test-reversed-password",
                          BOOLEAN,
                          "true",
                          LIVE,
                          "Whether the password read backwards is checked too.")))),
          List.of(
              PropertyDefinition.of(
                      "enabled", BOOLEAN, null, LIVE, "Whether policies naming it apply it.")
                  .asMandatory()),
          "A check a new clear-text password must pass, named by password policies' password-validator.");

  public static final ObjectDefinition ROOT_DN =
      new ObjectDefinition(
          "root-dn",
          "ds-cfg-root-dn",
          null,
          null,
          null,
          parent -> ConfigDns.ROOT_DNS,
          List.of(),
          List.of(
              PropertyDefinition.of(
                      "default-root-privilege-name",
                      new EnumSyntax(InitialConfig.ROOT_PRIVILEGES),
                      null,
                      LIVE,
                      "Privileges every root user holds, beside those of its own ds-privilege-name.")
                  .asMultiValued()),
          "The privileges of the root users (cn=Root DNs,cn=config).");

  public static final ObjectDefinition PLUGIN =
      new ObjectDefinition(
          "plugin",
          "ds-cfg-plugin",
          "cn",
          "--plugin-name",
          null,
          parent -> ConfigDns.PLUGINS,
          List.of(
              new TypeDefinition(
                  "referential-integrity",
                  "ds-cfg-referential-integrity-plugin",
                  List.of(
                      PropertyDefinition.of(
                              "attribute-type",
                              STRING,
                              null,
                              LIVE,
                              "Attributes holding DNs that a delete removes and a rename rewrites"
                                  + " (default: member, uniqueMember).")
                          .asMultiValued(),
                      PropertyDefinition.of(
                              "base-dn",
                              DN,
                              null,
                              LIVE,
                              "Where entries referring to the deleted or renamed one are looked for"
                                  + " (default: every naming context).")
                          .asMultiValued()))),
          List.of(
              PropertyDefinition.of("enabled", BOOLEAN, null, LIVE, "Whether the plugin runs.")
                  .asMandatory()),
          "Server plugins: referential integrity (after a delete or rename, the DN is removed from or"
              + " renamed in the attributes that refer to it).");

  private static final List<PropertyDefinition> STORE_PROVIDER_PROPERTIES =
      List.of(
          PropertyDefinition.of(
                  "enabled", BOOLEAN, null, RESTART, "Whether the listeners use the provider.")
              .asMandatory());

  public static final ObjectDefinition KEY_MANAGER_PROVIDER =
      new ObjectDefinition(
          "key-manager-provider",
          "ds-cfg-key-manager-provider",
          "cn",
          "--provider-name",
          null,
          parent -> ConfigDns.KEY_MANAGER_PROVIDERS,
          List.of(
              new TypeDefinition(
                  "file-based",
                  "ds-cfg-file-based-key-manager-provider",
                  List.of(
                      PropertyDefinition.of(
                          "key-store-file",
                          STRING,
                          "config/keystore.p12",
                          RESTART,
                          "PKCS#12 key store holding the server certificate and its key, relative to"
                              + " the instance (a self-signed one is generated when it is missing)."),
                      PropertyDefinition.of(
                          "key-store-pin-file",
                          STRING,
                          "config/keystore.p12.pin",
                          RESTART,
                          "File holding the key store's PIN, relative to the instance.")))),
          STORE_PROVIDER_PROPERTIES,
          "Where the LDAPS and StartTLS listeners find their certificate (one provider: Default Key"
              + " Manager).");

  public static final ObjectDefinition TRUST_MANAGER_PROVIDER =
      new ObjectDefinition(
          "trust-manager-provider",
          "ds-cfg-trust-manager-provider",
          "cn",
          "--provider-name",
          null,
          parent -> ConfigDns.TRUST_MANAGER_PROVIDERS,
          List.of(
              new TypeDefinition(
                  "file-based",
                  "ds-cfg-file-based-trust-manager-provider",
                  List.of(
                      PropertyDefinition.of(
                          "trust-store-file",
                          STRING,
                          "config/truststore.p12",
                          RESTART,
                          "PKCS#12 trust store of the issuers of client certificates, relative to the"
                              + " instance; when it exists, clients are asked for a certificate (SASL"
                              + " EXTERNAL)."),
                      PropertyDefinition.of(
                          "trust-store-pin-file",
                          STRING,
                          "config/truststore.p12.pin",
                          RESTART,
                          "File holding the trust store's PIN, relative to the instance.")))),
          STORE_PROVIDER_PROPERTIES,
          "Which client certificates the listeners accept (one provider: Default Trust Manager).");

  public static final ObjectDefinition SASL_MECHANISM_HANDLER =
      new ObjectDefinition(
          "sasl-mechanism-handler",
          "ds-cfg-sasl-mechanism-handler",
          "cn",
          "--handler-name",
          null,
          parent -> ConfigDns.SASL_MECHANISM_HANDLERS,
          List.of(
              new TypeDefinition("plain", "ds-cfg-plain-sasl-mechanism-handler", List.of()),
              new TypeDefinition("external", "ds-cfg-external-sasl-mechanism-handler", List.of())),
          List.of(
              PropertyDefinition.of(
                      "enabled",
                      BOOLEAN,
                      null,
                      LIVE,
                      "Whether binds may use the mechanism (and the root DSE lists it).")
                  .asMandatory()),
          "The SASL mechanisms binds may use: PLAIN and EXTERNAL.");

  /** Every kind, parents before children. */
  public static final List<ObjectDefinition> ALL =
      List.of(
          GLOBAL,
          BACKEND,
          BACKEND_INDEX,
          BACKEND_VLV_INDEX,
          CONNECTION_HANDLER,
          LOG_PUBLISHER,
          ACCESS_LOG_FILTERING_CRITERIA,
          PASSWORD_POLICY,
          PASSWORD_STORAGE_SCHEME,
          PASSWORD_VALIDATOR,
          ROOT_DN,
          PLUGIN,
          KEY_MANAGER_PROVIDER,
          TRUST_MANAGER_PROVIDER,
          SASL_MECHANISM_HANDLER);

  private ConfigModel() {}

  /**
   * The kind of a configuration entry, from its object classes; empty for containers and root DNs.
   */
  public static Optional<ObjectDefinition> definitionOf(Entry entry) {
    return ALL.stream().filter(d -> entry.hasObjectClass(d.objectClass())).findFirst();
  }

  public static Optional<ObjectDefinition> byName(String name) {
    return ALL.stream().filter(d -> d.name().equals(name)).findFirst();
  }
}
