package io.rockds.server.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.layout.Instance;
import io.rockds.server.TestServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data volume fills up: the instance lives on a small tmpfs (this needs root; the test is
 * skipped where {@code mount} is not permitted). Writes then fail with unwillingToPerform "disk
 * full", the error log says why, {@code /health} answers 503 and {@code cn=monitor} shows the
 * backend not writable; reads keep working; writes resume by themselves once the volume is grown
 * (and health with them), and after a restart every acknowledged entry is there.
 */
class DiskFullIT {
  private static final int VOLUME_MB = 48;
  private static final int PHOTO_BYTES = 256 * 1024;

  @TempDir Path dir;

  @Test
  void writesFailClearlyWhenTheVolumeIsFullReadsGoOnAndWritesResumeWhenSpaceReturns()
      throws Exception {
    Path volume = Files.createDirectories(dir.resolve("volume"));
    Assumptions.assumeTrue(
        run("mount", "-t", "tmpfs", "-o", "size=" + VOLUME_MB + "m", "tmpfs", volume.toString()),
        "mounting a tmpfs needs root");
    try {
      List<String> acknowledged = new ArrayList<>();
      try (TestServer server = TestServer.start(volume, TestServer.baseEntries())) {
        try (LDAPConnection c = server.rootConnection()) {
          c.modify(
              "cn=config", new Modification(ModificationType.REPLACE, "ds-cfg-http-port", "0"));
        }
        server.restart();
        assertThat(health(server)).isEqualTo(200);
        LDAPException full = null;
        try (LDAPConnection c = server.rootConnection()) {
          Random random = new Random(1);
          for (int i = 0; i < 4 * VOLUME_MB * (1 << 20) / PHOTO_BYTES && full == null; i++) {
            byte[] photo = new byte[PHOTO_BYTES];
            random.nextBytes(photo); // incompressible
            String dn = "cn=photo" + i + "," + TestServer.BASE;
            try {
              c.add(
                  new Entry(
                      dn,
                      new Attribute("objectClass", "top", "device", "extensibleObject"),
                      new Attribute("cn", "photo" + i),
                      new Attribute("jpegPhoto", photo)));
              acknowledged.add(dn);
            } catch (LDAPException e) {
              full = e;
            }
          }
          assertThat(full).as("a write fails once the volume is full").isNotNull();
          System.out.printf(
              "disk full: %d entries acknowledged, then %s%n", acknowledged.size(), full);
          assertThat(full.getResultCode()).isEqualTo(ResultCode.UNWILLING_TO_PERFORM);
          assertThat(full.getDiagnosticMessage()).startsWith("disk full");
          assertThat(health(server)).isEqualTo(503);
          Entry monitor = c.getEntry("cn=userRoot Backend,cn=monitor", "*");
          assertThat(monitor.getAttributeValue("ds-backend-writable")).isEqualTo("false");
          assertThat(monitor.getAttributeValue("ds-backend-degraded-reason")).contains("disk full");
          assertThat(awaitLine(server.instance().logs().resolve("errors"), "disk full"))
              .contains("severity=ERROR")
              .contains("No space left on device");

          assertThat(c.getEntry(acknowledged.get(0), "cn")).as("reads go on").isNotNull();
          assertThat(
                  c.search(TestServer.BASE, SearchScope.ONE, "(cn=photo*)", "1.1").getEntryCount())
              .isEqualTo(acknowledged.size());

          assertThat(run("mount", "-o", "remount,size=" + 8 * VOLUME_MB + "m", volume.toString()))
              .isTrue();
          String resumed = "cn=after-space-returns," + TestServer.BASE;
          LDAPException last = null;
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
          while (System.nanoTime() < deadline) {
            try {
              c.add(
                  new Entry(
                      resumed,
                      new Attribute("objectClass", "device"),
                      new Attribute("cn", "after-space-returns")));
              last = null;
              break;
            } catch (LDAPException e) {
              last = e;
              Thread.sleep(500);
            }
          }
          assertThat(last).as("writes resume once space returns").isNull();
          acknowledged.add(resumed);
          assertThat(health(server)).isEqualTo(200);
          assertThat(
                  c.getEntry("cn=userRoot Backend,cn=monitor", "*")
                      .getAttributeValue("ds-backend-writable"))
              .isEqualTo("true");
        }
        server.restart();
        try (LDAPConnection c = server.rootConnection()) {
          for (String dn : acknowledged) {
            assertThat(c.getEntry(dn)).as(dn + " after restart").isNotNull();
          }
        }
      }
      assertThat(OfflineVerification.mismatches(new Instance(volume.resolve("instance"))))
          .isEmpty();
    } finally {
      run("umount", "-l", volume.toString());
    }
  }

  private static int health(TestServer server) throws IOException, InterruptedException {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.server().httpPort() + "/health"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    return response.statusCode();
  }

  /** The first line of {@code log} containing {@code text}, waiting for the asynchronous writer. */
  private static String awaitLine(Path log, String text) throws IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    do {
      if (Files.exists(log)) {
        for (String line : Files.readAllLines(log)) {
          if (line.contains(text)) {
            return line;
          }
        }
      }
      Thread.onSpinWait();
    } while (System.nanoTime() < deadline);
    return Files.exists(log) ? Files.readString(log) : "";
  }

  private static boolean run(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
  }
}
