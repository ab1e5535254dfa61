package io.rockds.tools.backup;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.layout.Instance;
import io.rockds.server.DirectoryServer;
import io.rockds.server.InstanceSetup;
import io.rockds.tools.fixtures.SampleInstance;
import io.rockds.tools.fixtures.ToolOutput;
import io.rockds.tools.verify.VerifyIndex;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/backup through a running server while clients write, then bin/restore into a freshly set-up
 * instance: every write acknowledged before the backup started is there, the indexes verify clean,
 * incremental backups share files, purging keeps the newest, and a corrupted file is found.
 */
class BackupRestoreIT {
  private static final int WRITERS = 3;

  /** Bounds of the write load: per writer, and in time. */
  private static final int MAX_WRITES_PER_WRITER = 20_000;

  private static final Duration MAX_LOAD = Duration.ofSeconds(120);

  @TempDir Path dir;

  /**
   * backup through the server at 127.0.0.1:{@code port} into {@code backups}, then {@code more}.
   */
  private static ToolOutput backupThrough(String port, Path backups, String... more) {
    return ToolOutput.run(
        new Backup(),
        Stream.concat(
                Stream.of(
                    "-h", "127.0.0.1", "-p", port, "-w", "password", "-d", backups.toString()),
                Stream.of(more))
            .toArray(String[]::new));
  }

  @Test
  void onlineBackupWhileWritingRestoresEveryAcknowledgedWriteIntoANewInstance() throws Exception {
    Instance source = SampleInstance.copyTo(dir.resolve("source"));
    Path backups = dir.resolve("backups");
    Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    Set<String> acknowledgedBeforeBackup;
    try (DirectoryServer server = DirectoryServer.start(source)) {
      String port = Integer.toString(server.ldapPort());
      AtomicBoolean stop = new AtomicBoolean();
      AtomicInteger written = new AtomicInteger();
      ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
      List<Future<?>> writers = new ArrayList<>();
      long deadline = System.nanoTime() + MAX_LOAD.toNanos();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        writers.add(
            pool.submit(
                () -> {
                  try (LDAPConnection ldap =
                      new LDAPConnection(
                          "127.0.0.1", server.ldapPort(), "cn=Directory Manager", "password")) {
                    for (int n = 0;
                        n < MAX_WRITES_PER_WRITER && !stop.get() && System.nanoTime() < deadline;
                        n++) {
                      String dn = "uid=w" + writer + "-" + n + ",ou=People,dc=example,dc=com";
                      ldap.add(user(dn));
                      acknowledged.add(dn);
                      written.incrementAndGet();
                    }
                  }
                  return null;
                }));
      }
      awaitAtLeast(written, 300, deadline);
      acknowledgedBeforeBackup = Set.copyOf(acknowledged);

      ToolOutput full = backupThrough(port, backups);
      assertThat(full.exitCode()).as(full.out() + full.err()).isZero();
      assertThat(full.out())
          .contains("Backup task ds-task-id=backup-")
          .contains("Backed up backend userRoot")
          .containsPattern("Backup \\d{17}Z completed");
      int duringBackup = written.get();
      awaitAtLeast(written, duringBackup + 100, deadline);

      ToolOutput incremental = backupThrough(port, backups, "--incremental");
      assertThat(incremental.exitCode()).as(incremental.out() + incremental.err()).isZero();
      stop.set(true);
      for (Future<?> writer : writers) {
        writer.get(60, TimeUnit.SECONDS);
      }
      pool.shutdown();

      ToolOutput offlineWhileRunning =
          ToolOutput.run(
              new Backup(), "--instance", source.root().toString(), "-d", backups.toString());
      assertThat(offlineWhileRunning.exitCode()).isEqualTo(1);
      assertThat(offlineWhileRunning.err()).contains("is running: back up through it with -p");
      ToolOutput restoreWhileRunning =
          ToolOutput.run(
              new Restore(), "--instance", source.root().toString(), "-d", backups.toString());
      assertThat(restoreWhileRunning.exitCode()).isEqualTo(1);
      assertThat(restoreWhileRunning.err()).contains("is already running");
    }
    assertThat(acknowledgedBeforeBackup).hasSizeGreaterThanOrEqualTo(300);

    ToolOutput list = ToolOutput.run(new Restore(), "-d", backups.toString(), "--listBackups");
    assertThat(list.out())
        .containsPattern("\\d{17}Z .* full .*userRoot \\(\\d+\\)")
        .containsPattern("\\d{17}Z .* incremental .*userRoot \\(\\d+\\)");
    String fullId = firstBackupId(list.out());
    try (Stream<Path> shared = Files.list(backups.resolve("db/userRoot/shared_checksum"))) {
      assertThat(shared.filter(p -> p.toString().endsWith(".sst")).count())
          .as("incremental SST files")
          .isPositive();
    }

    // A new instance, set up as on another machine, receives the full backup.
    Instance target = new Instance(dir.resolve("target"));
    InstanceSetup.create(
        target, InstanceSetup.loopback(SampleInstance.BASE, 0, -1), "other", List.of());
    ToolOutput restored =
        ToolOutput.run(
            new Restore(),
            "--instance",
            target.root().toString(),
            "-d",
            backups.toString(),
            "--backupID",
            fullId);
    assertThat(restored.exitCode()).as(restored.out() + restored.err()).isZero();
    assertThat(restored.out())
        .contains("every file matches its checksum")
        .contains("Restored backend userRoot");

    try (DirectoryServer server = DirectoryServer.start(target);
        LDAPConnection ldap =
            new LDAPConnection(
                "127.0.0.1", server.ldapPort(), "cn=Directory Manager", "password")) {
      List<String> missing = new ArrayList<>();
      for (String dn : acknowledgedBeforeBackup) {
        if (ldap.getEntry(dn, "1.1") == null) {
          missing.add(dn);
        }
      }
      assertThat(missing).as("writes acknowledged before the backup began").isEmpty();
      assertThat(ldap.getEntry("uid=user.0,ou=People,dc=example,dc=com")).isNotNull();
    }
    ToolOutput verified =
        ToolOutput.run(
            new VerifyIndex(), "--instance", target.root().toString(), "-b", "dc=example,dc=com");
    assertThat(verified.exitCode()).as(verified.out() + verified.err()).isZero();
    assertThat(verified.out()).contains("no inconsistency");

    ToolOutput purged =
        ToolOutput.run(new Backup(), "-d", backups.toString(), "--purge", "--keepCount", "1");
    assertThat(purged.exitCode()).as(purged.err()).isZero();
    assertThat(purged.out()).contains("Purged backup " + fullId);
    ToolOutput intact = ToolOutput.run(new Restore(), "-d", backups.toString(), "--dry-run");
    assertThat(intact.exitCode()).as(intact.out() + intact.err()).isZero();
    assertThat(intact.out()).contains("is intact");
  }

  @Test
  void offlineBackupOfAStoppedServerAndACorruptedFileIsDetected() throws Exception {
    Instance source = SampleInstance.copyTo(dir.resolve("source"));
    Path backups = dir.resolve("backups");
    ToolOutput compressed =
        ToolOutput.run(
            new Backup(), "--instance", source.root().toString(), "-d", backups.toString(), "-c");
    assertThat(compressed.exitCode()).isEqualTo(1);
    assertThat(compressed.err()).contains("backups are always compressed");
    assertThat(backups).doesNotExist();
    ToolOutput backup =
        ToolOutput.run(
            new Backup(), "--instance", source.root().toString(), "-d", backups.toString());
    assertThat(backup.exitCode()).as(backup.out() + backup.err()).isZero();
    assertThat(backup.out()).containsPattern("Backup \\d{17}Z of userRoot written to ");

    Path sst;
    try (Stream<Path> files = Files.walk(backups.resolve("db/userRoot/private"))) {
      sst = files.filter(p -> p.toString().endsWith(".sst")).findFirst().orElseThrow();
    }
    flipOneByte(sst);
    ToolOutput verify = ToolOutput.run(new Restore(), "-d", backups.toString(), "--dry-run");
    assertThat(verify.exitCode()).isEqualTo(1);
    assertThat(verify.err()).contains(sst.getFileName().toString()).contains("corrupted");

    Instance target = new Instance(dir.resolve("target"));
    InstanceSetup.create(
        target, InstanceSetup.loopback(SampleInstance.BASE, 0, -1), "other", List.of());
    byte[] configBefore = Files.readAllBytes(target.configFile());
    ToolOutput restore =
        ToolOutput.run(
            new Restore(), "--instance", target.root().toString(), "-d", backups.toString());
    assertThat(restore.exitCode()).isEqualTo(1);
    assertThat(restore.err()).contains("corrupted");
    assertThat(Files.readAllBytes(target.configFile()))
        .as("a refused restore changes nothing")
        .isEqualTo(configBefore);

    Path config =
        Files.list(backups)
            .filter(p -> Files.isDirectory(p.resolve("config")))
            .findFirst()
            .orElseThrow()
            .resolve("config/config.ldif");
    Files.writeString(config, "\n# edited\n", StandardOpenOption.APPEND);
    flipOneByte(sst); // the database file is whole again; the configuration is not
    ToolOutput configVerify = ToolOutput.run(new Restore(), "-d", backups.toString(), "--dry-run");
    assertThat(configVerify.exitCode()).isEqualTo(1);
    assertThat(configVerify.err()).contains("config.ldif: corrupted (SHA-256");
  }

  private static void flipOneByte(Path file) throws IOException {
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      long position = channel.size() / 2;
      ByteBuffer b = ByteBuffer.allocate(1);
      channel.read(b, position);
      b.put(0, (byte) (b.get(0) ^ 0x5A)).rewind();
      channel.write(b, position);
    }
  }

  private static String firstBackupId(String listing) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{17}Z)").matcher(listing);
    assertThat(m.find()).as(listing).isTrue();
    return m.group(1);
  }

  private static void awaitAtLeast(AtomicInteger count, int wanted, long deadline)
      throws InterruptedException {
    while (count.get() < wanted) {
      assertThat(System.nanoTime())
          .as("%d writes within the load's time bound", wanted)
          .isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  private static Entry user(String dn) throws LDAPException {
    String uid = dn.substring(4, dn.indexOf(','));
    return new Entry(
        dn,
        new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
        new Attribute("uid", uid),
        new Attribute("cn", "Writer " + uid),
        new Attribute("sn", "Writer"));
  }
}
