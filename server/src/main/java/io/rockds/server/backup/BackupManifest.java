package io.rockds.server.backup;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * What one backup holds, written last ({@code <backupDirectory>/<backupID>/manifest.properties}): a
 * backup without it is incomplete and ignored.
 *
 * @param backends per backend ID, the backup engine's number and the sequence number it is
 *     consistent at
 * @param configFiles per file under {@code config/} (relative, '/'-separated), its SHA-256 in hex
 */
public record BackupManifest(
    String backupId,
    Instant time,
    String version,
    boolean incremental,
    Map<String, BackendBackup> backends,
    Map<String, String> configFiles) {

  static final String FILE = "manifest.properties";

  /** One backend's part of the backup. */
  public record BackendBackup(int number, long sequence) {}

  public BackupManifest {
    backends = Map.copyOf(new TreeMap<>(backends));
    configFiles = Map.copyOf(new TreeMap<>(configFiles));
  }

  void write(Path directory) throws IOException {
    Properties p = new Properties();
    p.setProperty("backup-id", backupId);
    p.setProperty("time", time.toString());
    p.setProperty("version", version);
    p.setProperty("incremental", Boolean.toString(incremental));
    backends.forEach(
        (id, b) -> {
          p.setProperty("backend." + id + ".number", Integer.toString(b.number()));
          p.setProperty("backend." + id + ".sequence", Long.toString(b.sequence()));
        });
    configFiles.forEach((file, sha) -> p.setProperty("config." + file, sha));
    Path tmp = directory.resolve(FILE + ".tmp");
    try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
      p.store(out, "RockDS backup " + backupId);
    }
    Files.move(tmp, directory.resolve(FILE), StandardCopyOption.ATOMIC_MOVE);
  }

  static BackupManifest read(Path directory) throws IOException {
    Path file = directory.resolve(FILE);
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(in);
    }
    try {
      Map<String, BackendBackup> backends = new TreeMap<>();
      Map<String, String> config = new TreeMap<>();
      for (String key : p.stringPropertyNames()) {
        if (key.startsWith("backend.") && key.endsWith(".number")) {
          String id = key.substring("backend.".length(), key.length() - ".number".length());
          backends.put(
              id,
              new BackendBackup(
                  Integer.parseInt(p.getProperty(key)),
                  Long.parseLong(p.getProperty("backend." + id + ".sequence"))));
        } else if (key.startsWith("config.")) {
          config.put(key.substring("config.".length()), p.getProperty(key));
        }
      }
      return new BackupManifest(
          require(p, "backup-id", file),
          Instant.parse(require(p, "time", file)),
          require(p, "version", file),
          Boolean.parseBoolean(p.getProperty("incremental")),
          backends,
          config);
    } catch (RuntimeException e) {
      throw new IOException(file + ": not a RockDS backup manifest (" + e.getMessage() + ")", e);
    }
  }

  private static String require(Properties p, String key, Path file) throws IOException {
    String value = p.getProperty(key);
    if (value == null) {
      throw new IOException(file + ": " + key + " is missing");
    }
    return value;
  }
}
