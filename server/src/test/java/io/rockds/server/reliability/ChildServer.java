package io.rockds.server.reliability;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import io.rockds.layout.Instance;
import io.rockds.server.InstanceSetup;
import io.rockds.server.TestServer;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The server as a separate JVM ({@code io.rockds.server.Main}) on the test's classpath, so a test
 * can {@code kill -9} it. Output goes to {@code server.out} next to the instance.
 */
final class ChildServer implements AutoCloseable {
  private static final long START_TIMEOUT_MILLIS = 60_000;

  private final Instance instance;
  private final Process process;
  private final int ldapPort;

  private ChildServer(Instance instance, Process process, int ldapPort) {
    this.instance = instance;
    this.process = process;
    this.ldapPort = ldapPort;
  }

  /** Creates an instance (LDAP and LDAPS on ephemeral loopback ports) holding {@code entries}. */
  static Instance create(Path root, List<Entry> entries) throws Exception {
    Instance instance = new Instance(root);
    InstanceSetup.create(
        instance,
        InstanceSetup.loopback(new DN(TestServer.BASE), 0, 0),
        TestServer.ROOT_PASSWORD,
        entries);
    return instance;
  }

  /** Starts the server of {@code instance}; returns once it has written its started file. */
  static ChildServer start(Instance instance) throws IOException, InterruptedException {
    Files.deleteIfExists(instance.startedFile());
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process process =
        new ProcessBuilder(
                java,
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                "io.rockds.server.Main",
                "--instance",
                instance.root().toString())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(outputFile(instance)))
            .start();
    long deadline = System.currentTimeMillis() + START_TIMEOUT_MILLIS;
    while (System.currentTimeMillis() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "server exited with " + process.exitValue() + ": " + output(instance));
      }
      if (Files.exists(instance.startedFile())) {
        String listeners = Files.readString(instance.startedFile(), StandardCharsets.UTF_8);
        for (String line : listeners.split("\n")) {
          if (line.startsWith("ldap://")) {
            return new ChildServer(
                instance,
                process,
                Integer.parseInt(line.substring(line.lastIndexOf(':') + 1).trim()));
          }
        }
      }
      Thread.sleep(50);
    }
    process.destroyForcibly().waitFor();
    throw new IllegalStateException(
        "server did not start within " + START_TIMEOUT_MILLIS + " ms: " + output(instance));
  }

  private static File outputFile(Instance instance) {
    return instance.root().resolveSibling(instance.root().getFileName() + "-server.out").toFile();
  }

  /** The child's console output so far (for failure messages). */
  static String output(Instance instance) {
    try {
      String all = Files.readString(outputFile(instance).toPath(), StandardCharsets.UTF_8);
      return all.length() > 4000 ? all.substring(all.length() - 4000) : all;
    } catch (IOException e) {
      return "(no output: " + e.getMessage() + ")";
    }
  }

  int ldapPort() {
    return ldapPort;
  }

  LDAPConnection rootConnection() throws LDAPException {
    return new LDAPConnection("127.0.0.1", ldapPort, TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** kill -9: no shutdown hook, no flush, no close. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("server " + process.pid() + " survived SIGKILL");
    }
  }

  /** SIGTERM: the clean shutdown path. */
  void stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      kill();
    }
  }

  Instance instance() {
    return instance;
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      try {
        kill();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
