package io.rockds.config;

import com.unboundid.ldap.sdk.Entry;
import io.rockds.config.model.ConfigModel;
import io.rockds.config.model.PropertyReader;
import java.util.ArrayList;
import java.util.List;

/**
 * A file-based access or error log publisher ({@code cn=<name>,cn=Loggers,cn=config}).
 *
 * @param logFile relative to the instance unless absolute
 * @param format {@code combined} or {@code json} (access logs)
 * @param filteringPolicy {@code no-filtering}, {@code inclusive} or {@code exclusive} (access logs)
 * @param logLevel {@code error}, {@code warning} or {@code info} (error logs)
 * @param rotationSizeBytes 0 = never rotate on size
 * @param rotationIntervalMillis 0 = never rotate on age
 * @param retentionFileCount rotated files kept; 0 = all
 */
public record LogPublisherConfig(
    String name,
    Kind kind,
    boolean enabled,
    String logFile,
    String format,
    String filteringPolicy,
    String logLevel,
    boolean asynchronous,
    int queueSize,
    long rotationSizeBytes,
    long rotationIntervalMillis,
    int retentionFileCount,
    List<FilteringCriteriaConfig> criteria) {

  /** What a publisher logs. */
  public enum Kind {
    ACCESS,
    ERROR
  }

  static LogPublisherConfig from(Entry entry, List<Entry> criteriaEntries) {
    PropertyReader r = new PropertyReader(entry, ConfigModel.LOG_PUBLISHER);
    Kind kind = r.type().name().equals("file-based-error") ? Kind.ERROR : Kind.ACCESS;
    List<FilteringCriteriaConfig> criteria = new ArrayList<>();
    for (Entry c : criteriaEntries) {
      criteria.add(FilteringCriteriaConfig.from(c));
    }
    boolean access = kind == Kind.ACCESS;
    return new LogPublisherConfig(
        new ConfigEntry(entry).name(),
        kind,
        r.bool("enabled"),
        r.string("log-file"),
        access ? r.lowerCase("log-format") : "combined",
        access ? r.lowerCase("filtering-policy") : "no-filtering",
        access ? "info" : r.lowerCase("log-level"),
        r.bool("asynchronous"),
        r.integer("queue-size").intValue(),
        r.bytes("rotation-size"),
        r.millis("rotation-interval"),
        r.integer("retention-file-count").intValue(),
        List.copyOf(criteria));
  }
}
