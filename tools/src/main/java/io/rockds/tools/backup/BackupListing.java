package io.rockds.tools.backup;

import io.rockds.server.backup.BackupDirectory;
import io.rockds.server.backup.BackupManifest;
import io.rockds.tools.TextTable;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What backup and restore print and parse alike: the backup list and purge ages. */
final class BackupListing {
  private BackupListing() {}

  /** {@code --listBackups}: one row per backup, oldest first. */
  static void print(BackupDirectory directory, PrintWriter out) throws IOException {
    List<BackupManifest> backups = directory.list();
    if (backups.isEmpty()) {
      out.println("No backup in " + directory.root());
      return;
    }
    TextTable table =
        new TextTable("Backup ID", "Date", "Type", "Backends (sequence)", "Config files");
    for (BackupManifest b : backups) {
      StringBuilder backends = new StringBuilder();
      for (Map.Entry<String, BackupManifest.BackendBackup> e : b.backends().entrySet()) {
        backends
            .append(backends.length() > 0 ? ", " : "")
            .append(e.getKey())
            .append(" (")
            .append(e.getValue().sequence())
            .append(')');
      }
      table.row(
          b.backupId(),
          b.time().toString(),
          b.incremental() ? "incremental" : "full",
          backends.toString(),
          Integer.toString(b.configFiles().size()));
    }
    table.print(out);
  }

  /** An age such as {@code 30d}, {@code 12h}, {@code 90m}, or ISO-8601 ({@code P30D}). */
  static Duration age(String text) {
    String t = text.strip().toLowerCase(Locale.ROOT);
    try {
      if (t.startsWith("p")) {
        return Duration.parse(t.toUpperCase(Locale.ROOT));
      }
      long n = Long.parseLong(t.substring(0, t.length() - 1));
      return switch (t.charAt(t.length() - 1)) {
        case 'd' -> Duration.ofDays(n);
        case 'h' -> Duration.ofHours(n);
        case 'm' -> Duration.ofMinutes(n);
        case 's' -> Duration.ofSeconds(n);
        default -> throw new IllegalArgumentException();
      };
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "--olderThan " + text + ": not an age such as 30d, 12h, 90m or P30D");
    }
  }
}
