package io.rockds.server.logging;

import io.rockds.config.LogPublisherConfig;
import io.rockds.layout.Instance;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The configured log publishers. {@link #apply} is called at start and after every accepted change
 * under {@code cn=Loggers}: unchanged publishers keep running, changed ones are replaced, removed
 * or disabled ones closed, so a new access log or criteria takes effect without a restart.
 */
public final class ServerLogs implements AccessLogger, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ServerLogs.class);

  private final Instance instance;
  private volatile List<LogPublisher> publishers = List.of();
  private long droppedByClosed;

  public ServerLogs(Instance instance) {
    this.instance = instance;
  }

  /** Makes the running publishers match {@code configs} (enabled ones only). */
  public synchronized void apply(List<LogPublisherConfig> configs) {
    Map<String, LogPublisher> current = new LinkedHashMap<>();
    publishers.forEach(p -> current.put(p.config().name(), p));
    List<LogPublisher> next = new ArrayList<>();
    for (LogPublisherConfig config : configs) {
      if (!config.enabled()) {
        continue;
      }
      LogPublisher running = current.get(config.name());
      if (running != null && running.config().equals(config)) {
        next.add(running);
        current.remove(config.name());
        continue;
      }
      try {
        next.add(new LogPublisher(config, instance));
      } catch (IOException e) {
        LOG.error(
            "log publisher {}: cannot open {}: {}", config.name(), config.logFile(), e.toString());
      }
    }
    publishers = List.copyOf(next);
    for (LogPublisher replaced : current.values()) {
      droppedByClosed += replaced.dropped();
      replaced.close();
    }
  }

  @Override
  public void log(AccessRecord record) {
    for (LogPublisher p : publishers) {
      p.access(record);
    }
  }

  /** Writes a message to the error logs, e.g. a configuration change or a start-up notice. */
  public void error(ErrorSeverity severity, String category, String message) {
    for (LogPublisher p : publishers) {
      p.error(severity, category, message);
    }
  }

  /**
   * Records dropped by every publisher so far because their queues were full or the disk failed.
   */
  public synchronized long droppedRecords() {
    return droppedByClosed + publishers.stream().mapToLong(LogPublisher::dropped).sum();
  }

  @Override
  public synchronized void close() {
    publishers.forEach(LogPublisher::close);
    publishers = List.of();
  }
}
