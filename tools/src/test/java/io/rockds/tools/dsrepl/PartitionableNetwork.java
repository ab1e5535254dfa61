package io.rockds.tools.dsrepl;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The replication network of a group of server processes on loopback, which a test can cut: a real
 * network partition, with real sockets and nothing mocked.
 *
 * <p>Server {@code n}'s replication host is {@code ds<n>.rockds.test}. Each server process resolves
 * those names through a hosts file of its own ({@code -Djdk.net.hosts.file}): server {@code a}
 * reaches server {@code b} at {@code 127.0.<a+1>.<b+1>}, where a TCP proxy of this class forwards
 * to {@code b}'s listener, bound to {@code 127.0.<b+1>.<b+1>} (a server reaches itself directly).
 * So every connection between two servers passes one proxy that knows both ends, and {@link #cut}
 * closes every connection of a server, both ways, and refuses its new ones until {@link #heal}.
 */
final class PartitionableNetwork implements AutoCloseable {
  private final Path directory;
  private final int capacity;
  private final List<Proxy> proxies = new ArrayList<>();
  private final Set<Integer> cut = ConcurrentHashMap.newKeySet();
  private final Map<Integer, Path> hostsFiles = new ConcurrentHashMap<>();

  /**
   * @param directory where the hosts files are written
   * @param capacity how many servers the group may have (0 to capacity-1), joining ones included
   */
  PartitionableNetwork(Path directory, int capacity) {
    this.directory = directory;
    this.capacity = capacity;
  }

  /** The replication host of server {@code n}, as setup's --replicationHost takes it. */
  static String host(int n) {
    return "ds" + n + ".rockds.test";
  }

  /** Where server {@code from} reaches server {@code to}. */
  private static String address(int from, int to) {
    return "127.0." + (from + 1) + "." + (to + 1);
  }

  /**
   * Proxies from every other server to server {@code n}, whose replication listener has {@code
   * port} (every proxy to it listens on that port too, at its own address).
   */
  synchronized void add(int n, int port) throws IOException {
    for (int from = 0; from < capacity; from++) {
      if (from != n) {
        Proxy proxy = new Proxy(from, n, port);
        proxies.add(proxy);
        proxy.start();
      }
    }
  }

  /** The {@code -Djdk.net.hosts.file} of server {@code n}: the machine's names and the group's. */
  Path hostsFile(int n) throws IOException {
    Path file = hostsFiles.get(n);
    if (file == null) {
      StringBuilder hosts = new StringBuilder();
      Path system = Path.of("/etc/hosts");
      if (Files.isReadable(system)) {
        hosts.append(Files.readString(system)).append('\n');
      }
      hosts.append("127.0.0.1 localhost ").append(InetAddress.getLocalHost().getHostName());
      hosts.append('\n');
      for (int to = 0; to < capacity; to++) {
        hosts.append(address(n, to)).append(' ').append(host(to)).append('\n');
      }
      file = directory.resolve("hosts-ds" + n);
      Files.writeString(file, hosts.toString(), StandardCharsets.UTF_8);
      hostsFiles.put(n, file);
    }
    return file;
  }

  /**
   * Server {@code n} is cut off: its connections to and from the others are closed, new refused.
   */
  synchronized void cut(int n) {
    cut.add(n);
    for (Proxy proxy : proxies) {
      if (proxy.from == n || proxy.to == n) {
        proxy.sever();
      }
    }
  }

  /** Server {@code n} reaches the others again. */
  synchronized void heal(int n) {
    cut.remove(n);
  }

  @Override
  public synchronized void close() {
    for (Proxy proxy : proxies) {
      proxy.close();
    }
  }

  /** Forwards the connections server {@code from} opens to server {@code to}. */
  private final class Proxy implements AutoCloseable {
    final int from;
    final int to;
    private final int port;
    private final ServerSocket listener;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();

    Proxy(int from, int to, int port) throws IOException {
      this.from = from;
      this.to = to;
      this.port = port;
      this.listener = new ServerSocket();
      listener.setReuseAddress(true);
      listener.bind(new InetSocketAddress(address(from, to), port));
    }

    private boolean isCut() {
      return cut.contains(from) || cut.contains(to);
    }

    void start() {
      Thread acceptor = new Thread(this::accept, "proxy ds" + from + "->ds" + to);
      acceptor.setDaemon(true);
      acceptor.start();
    }

    private void accept() {
      while (!listener.isClosed()) {
        Socket in;
        try {
          in = listener.accept();
        } catch (IOException e) {
          return; // closed
        }
        connect(in);
      }
    }

    private void connect(Socket in) {
      Socket out = new Socket();
      try {
        if (isCut()) {
          in.close(); // refused: the server is cut off
          return;
        }
        out.connect(new InetSocketAddress(address(to, to), port), 5_000);
      } catch (IOException e) {
        closeQuietly(in);
        closeQuietly(out);
        return;
      }
      open.add(in);
      open.add(out);
      if (isCut()) { // cut while it connected
        sever();
        return;
      }
      pump(in, out, "ds" + from + "->ds" + to);
      pump(out, in, "ds" + to + "->ds" + from);
    }

    private void pump(Socket source, Socket target, String name) {
      Thread pump =
          new Thread(
              () -> {
                byte[] buffer = new byte[16 * 1024];
                try (InputStream input = source.getInputStream();
                    OutputStream output = target.getOutputStream()) {
                  for (int n; (n = input.read(buffer)) >= 0; ) {
                    output.write(buffer, 0, n);
                  }
                } catch (IOException e) {
                  // closed by the other pump or by a cut
                } finally {
                  closeQuietly(source);
                  closeQuietly(target);
                  open.remove(source);
                  open.remove(target);
                }
              },
              name);
      pump.setDaemon(true);
      pump.start();
    }

    /** Closes every connection this proxy forwards. */
    void sever() {
      for (Socket socket : open) {
        closeQuietly(socket);
      }
    }

    @Override
    public void close() {
      try {
        listener.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      sever();
    }
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // closing: nothing more to do with it
    }
  }
}
