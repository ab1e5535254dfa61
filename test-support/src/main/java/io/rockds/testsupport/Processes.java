package io.rockds.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** Runs programs as an operator would, for tests of scripts and distributions. */
public final class Processes {
  /** What a process printed (standard output and error together) and returned. */
  public record Result(int exitCode, String output) {}

  private Processes() {}

  /**
   * Starts {@code builder} (its directory and environment set by the caller) with no input,
   * collects its output and fails after 120 s.
   */
  public static Result run(ProcessBuilder builder) throws IOException, InterruptedException {
    Process p = builder.redirectErrorStream(true).start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + String.join(" ", builder.command()) + "\n" + out);
    }
    return new Result(p.exitValue(), out);
  }

  /** A loopback port free now. */
  public static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
