package io.rockds.server.security.aci;

import io.rockds.replication.DaemonThreads;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Host names of client addresses for {@code dns} bind rules, never blocking an operation on DNS. A
 * loopback address is {@code localhost} without any lookup; another address is resolved in the
 * background, one lookup at a time, and has no name (matches no pattern) until the answer is in.
 * Answers, names or their absence, are kept ten minutes; at most {@value #MAX_CACHED} of them.
 */
public final class HostNames {
  static final String LOCALHOST = "localhost";
  private static final int MAX_CACHED = 10_000;
  private static final long TTL_NANOS = Duration.ofMinutes(10).toNanos();

  /** A resolved address: its lower-case name, or null when it has none. */
  private record Answer(String name, long resolvedAt) {}

  private final Map<InetAddress, Answer> answers = new ConcurrentHashMap<>();
  private final Map<InetAddress, Boolean> pending = new ConcurrentHashMap<>();
  private final ThreadPoolExecutor resolver;

  public HostNames() {
    // One daemon thread; lookups beyond a small backlog are refused and retried by a later request.
    this.resolver =
        new ThreadPoolExecutor(
            1,
            1,
            30,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(256),
            new DaemonThreads("aci-dns-resolver"));
    resolver.allowCoreThreadTimeOut(true);
  }

  /** The host name of {@code address} in lower case, or null when it is unknown (yet). */
  String nameOf(InetAddress address) {
    if (address.isLoopbackAddress()) {
      return LOCALHOST;
    }
    Answer answer = answers.get(address);
    if (answer != null && System.nanoTime() - answer.resolvedAt() < TTL_NANOS) {
      return answer.name();
    }
    if (pending.putIfAbsent(address, Boolean.TRUE) == null) {
      try {
        resolver.execute(() -> resolve(address));
      } catch (RejectedExecutionException e) {
        pending.remove(address);
      }
    }
    return answer == null ? null : answer.name();
  }

  private void resolve(InetAddress address) {
    try {
      String name = InetAddress.getByAddress(address.getAddress()).getCanonicalHostName();
      if (answers.size() >= MAX_CACHED) {
        answers.clear();
      }
      // getCanonicalHostName answers the address itself when there is no name.
      answers.put(
          address,
          new Answer(
              name.equals(address.getHostAddress()) ? null : name.toLowerCase(Locale.ROOT),
              System.nanoTime()));
    } catch (UnknownHostException e) {
      answers.put(address, new Answer(null, System.nanoTime()));
    } finally {
      pending.remove(address);
    }
  }
}
