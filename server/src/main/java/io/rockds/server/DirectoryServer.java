package io.rockds.server;

import com.unboundid.ldap.sdk.LDAPException;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.handler.ssl.SslContext;
import io.rockds.config.ConfigEditor;
import io.rockds.config.ConfigException;
import io.rockds.config.ConfigStore;
import io.rockds.config.ConnectionHandlerConfig;
import io.rockds.config.GlobalConfig;
import io.rockds.config.ServerConfig;
import io.rockds.config.RequestLimitsConfig;
import io.rockds.protocol.ConnectionLimit;
import io.rockds.protocol.LdapServer;
import io.rockds.protocol.ProtocolSettings;
import io.rockds.server.backend.BackendRouter;
import io.rockds.server.backend.DirectoryBackend;
import io.rockds.server.config.ConfigBackend;
import io.rockds.server.config.LiveConfiguration;
import io.rockds.server.task.TaskBackend;
import io.rockds.server.logging.ErrorSeverity;
import io.rockds.server.logging.OperationLogging;
import io.rockds.server.logging.ServerLogs;
import io.rockds.server.group.Groups;
import io.rockds.server.schema.SchemaBackend;
import io.rockds.server.schema.ServerSchema;
import io.rockds.server.monitor.MetricsHttpServer;
import io.rockds.server.monitor.MonitorEntries;
import io.rockds.server.monitor.ServerMetrics;
import io.rockds.server.security.RootUsers;
import io.rockds.storage.Backend;
import io.rockds.server.security.SecurityServices;
import io.rockds.server.security.TlsContexts;
import io.rockds.server.security.policy.PasswordPolicies;
import java.io.IOException;
import java.net.BindException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The composition root: reads the configuration, opens the backends, builds the services and
 * starts the listeners; {@link #close} undoes it in reverse, so the database lock is always
 * released.
 */
public final class DirectoryServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DirectoryServer.class);

  private final Instance instance;
  private final Backends backends;
  private final ThreadPoolExecutor workers;
  private final EventLoopGroup bossGroup;
  private final EventLoopGroup ioGroup;
  private final List<LdapServer> listeners = new ArrayList<>();
  private final ServerLogs logs;
  private final TaskBackend tasks;
  private final ConnectionLimit connectionLimit;
  private final Duration shutdownGrace;
  private final ServerMetrics metrics;
  private MetricsHttpServer http;
  /** What /health reports: true from the moment every listener is bound until shutdown starts. */
  private volatile boolean ready;

  private DirectoryServer(Instance instance, Backends backends, ThreadPoolExecutor workers, RequestLimitsConfig limits,
      boolean metricsEnabled) {
    this.instance = instance;
    this.backends = backends;
    this.workers = workers;
    this.logs = new ServerLogs(instance);
    this.tasks = new TaskBackend(backends, logs);
    this.connectionLimit = new ConnectionLimit(limits.maxConnections());
    this.shutdownGrace = Duration.ofSeconds(limits.shutdownGraceSeconds());
    this.metrics = new ServerMetrics(metricsEnabled);
    metrics.bindWorkers(workers);
    backends.all().forEach(metrics::bindBackend);
    this.bossGroup = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    this.ioGroup = new MultiThreadIoEventLoopGroup(Math.max(2, Runtime.getRuntime().availableProcessors()),
        NioIoHandler.newFactory());
  }

  /** Starts the server of {@code instance}; returns once every listener is bound. */
  public static DirectoryServer start(Instance instance)
      throws ConfigException, LDAPException, BindException, InterruptedException {
    return start(instance, Clock.systemUTC());
  }

  /** As {@link #start(Instance)}, with the clock the password policy dates lockouts and ages by. */
  public static DirectoryServer start(Instance instance, Clock clock)
      throws ConfigException, LDAPException, BindException, InterruptedException {
    ConfigStore store = ConfigStore.load(instance.configFile());
    ServerConfig config = ServerConfig.read(store);
    ServerSchema schema = ServerSchema.load(instance.schemaDirectory());
    PasswordPolicies policies;
    try {
      policies = PasswordPolicies.read(store);
    } catch (ConfigException e) {
      throw new ConfigException(store.file() + ": " + e.getMessage(), e);
    }
    Backends backends = Backends.open(config.backends(), instance, schema.current());
    int threads = config.global().workerThreads() > 0 ? config.global().workerThreads()
        : Math.max(8, 2 * Runtime.getRuntime().availableProcessors());
    ThreadPoolExecutor workers = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(10_000), new WorkerThreads());
    DirectoryServer server = new DirectoryServer(instance, backends, workers, config.global().requestLimits(),
        config.global().http().metricsEnabled());
    try {
      SslContext ssl = tls(instance);
      RootUsers rootUsers = new RootUsers(config.rootDns(), policies);
      SecurityServices security =
          SecurityServices.open(store, config.global(), policies, rootUsers, backends, schema.current(), clock);
      LiveConfiguration live = new LiveConfiguration(config, store, security, rootUsers, server.logs,
          backends);
      AtomicReference<ServerContext> built = new AtomicReference<>();
      List<DirectoryBackend> namingContexts = new ArrayList<>(List.of(new RootDse(built::get),
          new SchemaBackend(schema),
          new ConfigBackend(new ConfigEditor(store, LiveConfiguration::checkApplicable), live, server.logs),
          new MonitorEntries(server.metrics, backends::all, workers, RootDse.VENDOR_VERSION), server.tasks));
      backends.all().forEach(b -> namingContexts.add(new StoredBackend(built::get, b)));
      ServerContext context = new ServerContext(backends, schema, rootUsers, live, ssl,
          new BackendRouter(namingContexts), security.access(), security.passwordPolicy(),
          new Groups(backends, schema, () -> live.global().referentialIntegrity()));
      built.set(context);
      RequestRouter router = new RequestRouter(context, new OperationLogging(server.logs, server.metrics));
      server.logStorageHealth();
      for (ConnectionHandlerConfig handler : config.connectionHandlers()) {
        if (handler.enabled()) {
          server.listen(handler, router, ssl);
        }
      }
      server.serveHttp(config.global().http());
      server.markStarted();
      server.logs.error(ErrorSeverity.INFO, "CORE", "RockDS started: " + server.describeListeners().replace('\n', ' '));
      return server;
    } catch (ConfigException | BindException | InterruptedException | RuntimeException e) {
      server.close();
      throw e;
    }
  }

  private static SslContext tls(Instance instance) throws ConfigException {
    try {
      return TlsContexts.forKeyStore(instance.keyStore());
    } catch (IOException | GeneralSecurityException e) {
      throw new ConfigException("cannot set up TLS from " + instance.keyStore() + ": " + e.getMessage(), e);
    }
  }

  private void serveHttp(GlobalConfig.HttpEndpoint endpoint) throws ConfigException {
    if (endpoint.port() < 0) {
      return;
    }
    try {
      http = new MetricsHttpServer(endpoint.address(), endpoint.port(), metrics, () -> ready && backendsHealthy());
    } catch (IOException e) {
      throw new ConfigException("cannot serve /metrics on " + endpoint.address() + ":" + endpoint.port() + ": "
          + e.getMessage(), e);
    }
  }

  /** False while a backend cannot write (a full disk): /health then answers 503. */
  private boolean backendsHealthy() {
    return backends.all().stream().allMatch(b -> b.health().isHealthy());
  }

  /** The error log hears when a backend stops writing and when it writes again. */
  private void logStorageHealth() {
    for (Backend backend : backends.all()) {
      backend.health().onChange(problem -> {
        if (problem != null) {
          logs.error(ErrorSeverity.ERROR, "BACKEND", problem.message() + "; reads go on, writes are refused"
              + " until the storage recovers");
        } else {
          logs.error(ErrorSeverity.INFO, "BACKEND", "backend " + backend.id() + " writes again");
        }
      });
    }
  }

  /** The port of the /metrics and /health endpoint, or -1 when there is none. */
  public int httpPort() {
    return http == null ? -1 : http.port();
  }

  public ServerMetrics metrics() {
    return metrics;
  }

  private void markStarted() throws ConfigException {
    try {
      Files.createDirectories(instance.logs());
      Files.writeString(instance.startedFile(), describeListeners() + "\n", StandardCharsets.UTF_8);
      ready = true;
    } catch (IOException e) {
      throw new ConfigException("cannot write " + instance.startedFile() + ": " + e.getMessage(), e);
    }
  }

  private void listen(ConnectionHandlerConfig handler, RequestRouter router, SslContext ssl)
      throws BindException, InterruptedException {
    ProtocolSettings settings = new ProtocolSettings(handler.listenAddress(), handler.listenPort(),
        handler.useSsl() ? ssl : null, handler.maxRequestSizeAnonymous(), handler.maxRequestSizeAuthenticated(),
        ProtocolSettings.DEFAULT_MAX_BER_DEPTH, handler.maxConnections(),
        Duration.ofSeconds(handler.idleTimeSeconds()), handler.maxOutstandingRequests(),
        Duration.ofMillis(handler.requestReadTimeoutMillis()));
    LdapServer listener = new LdapServer(settings, router, workers, bossGroup, ioGroup, connectionLimit);
    listener.start();
    listeners.add(listener);
    LOG.info("{} listening on {}://{}:{}", handler.name(), handler.useSsl() ? "ldaps" : "ldap",
        handler.listenAddress(), listener.port());
  }

  /** One line per listener, e.g. {@code ldap://127.0.0.1:1389}. */
  public String describeListeners() {
    StringBuilder sb = new StringBuilder();
    for (LdapServer l : listeners) {
      if (sb.length() > 0) {
        sb.append('\n');
      }
      sb.append(l.settings().sslContext() != null ? "ldaps://" : "ldap://").append(l.settings().host()).append(':')
          .append(l.port());
    }
    return sb.toString();
  }

  public List<LdapServer> listeners() {
    return List.copyOf(listeners);
  }

  /** The port of the first plain LDAP listener. */
  public int ldapPort() {
    return listeners.stream().filter(l -> l.settings().sslContext() == null).findFirst()
        .orElseThrow(() -> new IllegalStateException("no plain LDAP listener")).port();
  }

  /** The port of the first LDAPS listener, or -1. */
  public int ldapsPort() {
    return listeners.stream().filter(l -> l.settings().sslContext() != null).mapToInt(LdapServer::port).findFirst()
        .orElse(-1);
  }

  /** The access and error logs. */
  public ServerLogs logs() {
    return logs;
  }

  public Backends backends() {
    return backends;
  }

  public Instance instance() {
    return instance;
  }

  /**
   * Graceful shutdown: stops accepting and reading requests, lets running operations finish for
   * up to the grace period (shutdown-grace-period), tells every client with a Notice of
   * Disconnection (which abandons what still runs), then closes the backends (syncing the WAL,
   * releasing the lock).
   */
  @Override
  public void close() {
    ready = false;
    listeners.forEach(LdapServer::stopAccepting);
    listeners.forEach(LdapServer::stopReading);
    long deadline = System.nanoTime() + shutdownGrace.toNanos();
    try {
      for (LdapServer listener : listeners) {
        listener.awaitIdle(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    listeners.forEach(l -> l.disconnectAll("the server is shutting down"));
    workers.shutdown();
    try {
      if (!workers.awaitTermination(2, TimeUnit.SECONDS)) {
        workers.shutdownNow();
      }
    } catch (InterruptedException e) {
      workers.shutdownNow();
      Thread.currentThread().interrupt();
    }
    bossGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    ioGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    tasks.close();
    backends.close();
    logs.error(ErrorSeverity.INFO, "CORE", "RockDS stopped");
    logs.close();
    if (http != null) {
      http.close();
    }
    metrics.close();
    try {
      Files.deleteIfExists(instance.startedFile());
    } catch (IOException ignored) {
      // The marker only helps start-ds; a stale one is overwritten at next start.
    }
  }

  private static final class WorkerThreads implements java.util.concurrent.ThreadFactory {
    private final AtomicInteger count = new AtomicInteger();

    @Override
    public Thread newThread(Runnable r) {
      Thread t = new Thread(r, "rockds-worker-" + count.incrementAndGet());
      t.setDaemon(true);
      return t;
    }
  }
}
