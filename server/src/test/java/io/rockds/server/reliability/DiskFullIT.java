package io.rockds.server.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import io.rockds.server.Instance;
import io.rockds.server.TestServer;
import java.io.IOException;
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
 * skipped where {@code mount} is not permitted). Writes then fail with a clear result code
 * (unavailable, or other with a message), reads keep working, writes resume once the volume is
 * grown, and after a restart every acknowledged entry is there.
 */
class DiskFullIT {
  private static final int VOLUME_MB = 48;
  private static final int PHOTO_BYTES = 256 * 1024;

  @TempDir Path dir;

  @Test
  void writesFailClearlyWhenTheVolumeIsFullReadsGoOnAndWritesResumeWhenSpaceReturns() throws Exception {
    Path volume = Files.createDirectories(dir.resolve("volume"));
    Assumptions.assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=" + VOLUME_MB + "m", "tmpfs", volume.toString()),
        "mounting a tmpfs needs root");
    try {
      List<String> acknowledged = new ArrayList<>();
      try (TestServer server = TestServer.start(volume, TestServer.baseEntries())) {
        LDAPException full = null;
        try (LDAPConnection c = server.rootConnection()) {
          Random random = new Random(1);
          for (int i = 0; i < 4 * VOLUME_MB * (1 << 20) / PHOTO_BYTES && full == null; i++) {
            byte[] photo = new byte[PHOTO_BYTES];
            random.nextBytes(photo); // incompressible
            String dn = "cn=photo" + i + "," + TestServer.BASE;
            try {
              c.add(new Entry(dn, new Attribute("objectClass", "top", "device", "extensibleObject"),
                  new Attribute("cn", "photo" + i), new Attribute("jpegPhoto", photo)));
              acknowledged.add(dn);
            } catch (LDAPException e) {
              full = e;
            }
          }
          assertThat(full).as("a write fails once the volume is full").isNotNull();
          System.out.printf("disk full: %d entries acknowledged, then %s%n", acknowledged.size(), full);
          assertThat(full.getResultCode()).isIn(ResultCode.UNAVAILABLE, ResultCode.OTHER);
          assertThat(full.getDiagnosticMessage()).isNotBlank();

          assertThat(c.getEntry(acknowledged.get(0), "cn")).as("reads go on").isNotNull();
          assertThat(c.search(TestServer.BASE, SearchScope.ONE, "(cn=photo*)", "1.1").getEntryCount())
              .isEqualTo(acknowledged.size());

          assertThat(run("mount", "-o", "remount,size=" + 8 * VOLUME_MB + "m", volume.toString())).isTrue();
          String resumed = "cn=after-space-returns," + TestServer.BASE;
          LDAPException last = null;
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
          while (System.nanoTime() < deadline) {
            try {
              c.add(new Entry(resumed, new Attribute("objectClass", "device"), new Attribute("cn", "after-space-returns")));
              last = null;
              break;
            } catch (LDAPException e) {
              last = e;
              Thread.sleep(500);
            }
          }
          assertThat(last).as("writes resume once space returns").isNull();
          acknowledged.add(resumed);
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

  private static boolean run(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
  }
}
