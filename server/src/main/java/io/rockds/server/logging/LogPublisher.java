package io.rockds.server.logging;

import io.rockds.config.LogPublisherConfig;
import io.rockds.layout.Instance;
import java.io.IOException;
import java.time.ZonedDateTime;

/**
 * One enabled file-based publisher: its filter (access logs), its format and its writer. Built from
 * a {@link LogPublisherConfig}; a changed configuration replaces the publisher.
 */
final class LogPublisher implements AutoCloseable {
  private final LogPublisherConfig config;
  private final AccessFilter filter;
  private final AccessLogFormat format;
  private final ErrorSeverity threshold;
  private final LogWriter writer;

  LogPublisher(LogPublisherConfig config, Instance instance) throws IOException {
    this.config = config;
    this.filter = new AccessFilter(config.filteringPolicy(), config.criteria());
    this.format = AccessLogFormat.of(config.format());
    this.threshold = ErrorSeverity.of(config.logLevel());
    this.writer =
        new LogWriter(
            config.name(),
            new RotatingLogFile(
                instance.resolve(config.logFile()),
                config.rotationSizeBytes(),
                config.rotationIntervalMillis(),
                config.retentionFileCount()),
            config.asynchronous(),
            config.queueSize());
  }

  LogPublisherConfig config() {
    return config;
  }

  void access(AccessRecord record) {
    if (config.kind() == LogPublisherConfig.Kind.ACCESS && filter.accepts(record)) {
      writer.write(format.format(record));
    }
  }

  void error(ErrorSeverity severity, String category, String message) {
    if (config.kind() == LogPublisherConfig.Kind.ERROR && severity.compareTo(threshold) <= 0) {
      writer.write(
          "["
              + AccessLogFormat.TIMESTAMP.format(ZonedDateTime.now())
              + "] category="
              + category
              + " severity="
              + severity.label()
              + " msg=\""
              + message.replace('\n', ' ')
              + "\"");
    }
  }

  long dropped() {
    return writer.dropped();
  }

  @Override
  public void close() {
    writer.close();
  }
}
