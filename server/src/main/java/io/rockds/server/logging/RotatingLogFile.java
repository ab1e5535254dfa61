package io.rockds.server.logging;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.stream.Stream;

/**
 * A log file that appends lines and rotates: when it reaches {@code rotationSizeBytes} or is older
 * than {@code rotationIntervalMillis} it is renamed {@code <file>.<UTC timestamp>} and a new one
 * started; only the newest {@code retentionFileCount} rotated files are kept. Not thread-safe: one
 * writer thread owns it.
 */
final class RotatingLogFile implements AutoCloseable {
  private static final int BUFFER_BYTES = 64 * 1024;

  private static final DateTimeFormatter SUFFIX =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS'Z'");

  private final Path file;
  private final long rotationSizeBytes;
  private final long rotationIntervalMillis;
  private final int retentionFileCount;
  private static final byte[] NEWLINE = System.lineSeparator().getBytes(StandardCharsets.UTF_8);

  /**
   * Lines are encoded with {@link String#getBytes} (a copy for the Latin-1 strings log lines nearly
   * always are) into a byte buffer: a {@code Writer} encoded them char by char.
   */
  private OutputStream out;

  private long size;
  private long openedAtMillis;

  RotatingLogFile(
      Path file, long rotationSizeBytes, long rotationIntervalMillis, int retentionFileCount)
      throws IOException {
    this.file = file;
    this.rotationSizeBytes = rotationSizeBytes;
    this.rotationIntervalMillis = rotationIntervalMillis;
    this.retentionFileCount = retentionFileCount;
    open();
  }

  private void open() throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    out =
        new BufferedOutputStream(
            Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND),
            BUFFER_BYTES);
    size = Files.size(file);
    openedAtMillis = System.currentTimeMillis();
  }

  void write(String line) throws IOException {
    if (size > 0 && due(System.currentTimeMillis())) {
      rotate();
    }
    byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
    out.write(bytes);
    out.write(NEWLINE);
    size += bytes.length + NEWLINE.length;
  }

  private boolean due(long now) {
    return (rotationSizeBytes > 0 && size >= rotationSizeBytes)
        || (rotationIntervalMillis > 0 && now - openedAtMillis >= rotationIntervalMillis);
  }

  void flush() throws IOException {
    out.flush();
  }

  /**
   * Renames the current file aside, starts a new one and deletes rotated files beyond the
   * retention.
   */
  void rotate() throws IOException {
    out.close();
    Path rotated =
        file.resolveSibling(
            file.getFileName() + "." + ZonedDateTime.now(ZoneOffset.UTC).format(SUFFIX));
    for (int n = 1; Files.exists(rotated); n++) {
      rotated =
          file.resolveSibling(
              file.getFileName()
                  + "."
                  + ZonedDateTime.now(ZoneOffset.UTC).format(SUFFIX)
                  + "-"
                  + n);
    }
    Files.move(file, rotated);
    open();
    if (retentionFileCount > 0) {
      List<Path> old = rotatedFiles();
      for (int i = 0; i < old.size() - retentionFileCount; i++) {
        Files.deleteIfExists(old.get(i));
      }
    }
  }

  /** The rotated files, oldest first (their names sort by time). */
  List<Path> rotatedFiles() throws IOException {
    String prefix = file.getFileName() + ".";
    try (Stream<Path> files = Files.list(file.toAbsolutePath().getParent())) {
      return files.filter(p -> p.getFileName().toString().startsWith(prefix)).sorted().toList();
    }
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
