package io.rockds.server;

import com.unboundid.ldap.sdk.LDAPException;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.SslContext;
import io.rockds.config.BackendConfig;
import io.rockds.config.ConfigEditor;
import io.rockds.config.ConfigException;
import io.rockds.config.ConfigStore;
import io.rockds.config.ConnectionHandlerConfig;
import io.rockds.config.GlobalConfig;
import io.rockds.config.ReplicationConfig;
import io.rockds.config.RequestLimitsConfig;
import io.rockds.config.ServerConfig;
import io.rockds.config.TlsStoresConfig;
import io.rockds.layout.Instance;
import io.rockds.layout.ServerLock;
import io.rockds.protocol.ConnectionLimit;
import io.rockds.protocol.LdapServer;
import io.rockds.protocol.ProtocolSettings;
import io.rockds.protocol.Transport;
import io.rockds.server.backend.BackendRouter;
import io.rockds.server.backend.ChangeNotifier;
import io.rockds.server.backend.DirectoryBackend;
import io.rockds.server.changelog.ChangelogBackend;
import io.rockds.server.changelog.ChangelogStore;
import io.rockds.server.config.ConfigBackend;
import io.rockds.server.config.LiveConfiguration;
import io.rockds.server.group.Groups;
import io.rockds.server.logging.ErrorSeverity;
import io.rockds.server.logging.OperationLogging;
import io.rockds.server.logging.ServerLogs;
import io.rockds.server.monitor.MetricsHttpServer;
import io.rockds.server.monitor.MonitorEntries;
import io.rockds.server.monitor.ServerMetrics;
import io.rockds.server.psearch.PersistentSearches;
import io.rockds.server.replication.BackendSnapshots;
import io.rockds.server.replication.ReplicatedSettings;
import io.rockds.server.replication.ReplicatedWrites;
import io.rockds.server.replication.Writability;
import io.rockds.server.schema.SchemaBackend;
import io.rockds.server.schema.ServerSchema;
import io.rockds.server.security.RootUsers;
import io.rockds.server.security.SecurityServices;
import io.rockds.server.security.TlsContexts;
import io.rockds.server.security.policy.PasswordPolicies;
import io.rockds.server.task.TaskBackend;
import io.rockds.storage.Backend;
import io.rockds.storage.MemoryBudget;
import java.io.IOException;
import java.net.BindException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The composition root: reads the configuration, opens the backends, builds the services and starts
 * the listeners; {@link #close} undoes it in reverse, so the database lock is always released.
 */
public final class DirectoryServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DirectoryServer.class);

  /** What {@link Instance#stoppedFile()} says after a clean shutdown. */
  public static final String STOPPED_CLEANLY = "stopped cleanly";

  /**
   * How long cancelled operations (and then interrupted ones) get to end before shutdown gives up
   * on them.
   */
  private static final Duration CANCEL_WAIT = Duration.ofSeconds(10);

  private final Instance instance;

  /**
   * Held from start to the end of close: what start-ds and the tools ask to know whether the server
   * runs.
   */
  private final ServerLock lock;

  private final Backends backends;
  private final ThreadPoolExecutor workers;
  private final EventLoopGroup bossGroup;
  private final EventLoopGroup ioGroup;
  private final List<LdapServer> listeners = new ArrayList<>();
  private final ServerLogs logs;
  private final TaskBackend tasks;
  private final ConnectionLimit connectionLimit;

  /**
   * shutdown-grace-period: the configured value at start, the live one once the configuration is
   * up.
   */
  private volatile Supplier<Duration> shutdownGrace;

  private final ServerMetrics metrics;
  private MetricsHttpServer http;

  /** The replication group this server is a member of; null when it runs alone. */
  private ReplicatedWrites replication;

  private final CompletableFuture<String> restartRequested = new CompletableFuture<>();

  /** Null until the configuration is up. */
  private volatile PersistentSearches persistentSearches;

  /** What /health reports: true from the moment every listener is bound until shutdown starts. */
  private volatile boolean ready;

  private volatile boolean closing;
  private volatile boolean cleanly;

  private DirectoryServer(
      Instance instance,
      ServerLock lock,
      Backends backends,
      ThreadPoolExecutor workers,
      RequestLimitsConfig limits,
      boolean metricsEnabled) {
    this.instance = instance;
    this.lock = lock;
    this.backends = backends;
    this.workers = workers;
    this.logs = new ServerLogs(instance);
    this.tasks = new TaskBackend(instance, backends, logs, () -> this.replication);
    this.connectionLimit = new ConnectionLimit(limits.maxConnections());
    this.shutdownGrace = () -> Duration.ofSeconds(limits.shutdownGraceSeconds());
    this.metrics = new ServerMetrics(metricsEnabled);
    metrics.bindWorkers(workers);
    backends.all().forEach(metrics::bindBackend);
    this.bossGroup = Transport.SELECTED.newGroup(1);
    this.ioGroup =
        Transport.SELECTED.newGroup(Math.max(2, Runtime.getRuntime().availableProcessors()));
  }

  /** Starts the server of {@code instance}; returns once every listener is bound. */
  public static DirectoryServer start(Instance instance)
      throws ConfigException, LDAPException, BindException, InterruptedException {
    return start(instance, Clock.systemUTC());
  }

  /** As {@link #start(Instance)}, with the clock the password policy dates lockouts and ages by. */
  public static DirectoryServer start(Instance instance, Clock clock)
      throws ConfigException, LDAPException, BindException, InterruptedException {
    ServerLock lock;
    try {
      lock = ServerLock.acquire(instance);
      // Left by a server killed with -9: the lock, now ours, says it is gone.
      Files.deleteIfExists(instance.startedFile());
    } catch (IOException e) {
      throw new ConfigException(e.getMessage(), e);
    }
    try {
      return start(instance, lock, clock);
    } catch (Exception | Error e) { // also what a library threw undeclared
      lock.close();
      throw e;
    }
  }

  private static DirectoryServer start(Instance instance, ServerLock lock, Clock clock)
      throws ConfigException, LDAPException, BindException, InterruptedException {
    ConfigStore store = ConfigStore.load(instance.configFile());
    ReplicationConfig replicated = ReplicationConfig.read(store);
    if (replicated != null) {
      installReplicatedSettings(instance, store);
    }
    ServerConfig config = ServerConfig.read(store);
    ServerSchema schema = ServerSchema.load(instance.schemaDirectory());
    PasswordPolicies policies;
    try {
      policies = PasswordPolicies.read(store);
    } catch (ConfigException e) {
      throw new ConfigException(store.file() + ": " + e.getMessage(), e);
    }
    if (replicated != null) {
      installReplicationSnapshot(instance, config);
    }
    Backends backends =
        Backends.open(
            config.backends(),
            instance,
            schema.current(),
            MemoryBudget.ofThisProcess(config.global().memoryBudgetBytes()));
    int threads =
        config.global().workerThreads() > 0
            ? config.global().workerThreads()
            : Math.max(8, 2 * Runtime.getRuntime().availableProcessors());
    ThreadPoolExecutor workers =
        new ThreadPoolExecutor(
            threads,
            threads,
            60,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(10_000),
            new WorkerThreads());
    DirectoryServer server =
        new DirectoryServer(
            instance,
            lock,
            backends,
            workers,
            config.global().requestLimits(),
            config.global().http().metricsEnabled());
    try {
      SslContext ssl = tls(instance, config.tlsStores());
      server.metrics.bindCertificateExpiry(certificateExpiry(instance, config.tlsStores()));
      RootUsers rootUsers = new RootUsers(config.rootDns(), policies);
      AtomicReference<ServerContext> built = new AtomicReference<>();
      Groups groups =
          new Groups(
              backends, schema, () -> built.get().configuration().current().referentialIntegrity());
      SecurityServices security =
          SecurityServices.open(
              store,
              config.global(),
              policies,
              rootUsers,
              backends,
              schema.current(),
              groups,
              new PreparedModifies(built::get),
              clock);
      LiveConfiguration live =
          new LiveConfiguration(config, store, security, rootUsers, server.logs, backends);
      WriteApplier applier = new WriteApplier(built::get);
      if (replicated != null) {
        server.replication =
            new ReplicatedWrites(
                replicated,
                applier,
                backends,
                replicatedSettings(instance, store),
                server::requestRestart,
                reason -> server.logs.error(ErrorSeverity.ERROR, "REPLICATION", reason));
      }
      ChangeNotifier changes = new ChangeNotifier();
      ChangelogStore changelog =
          new ChangelogStore(
              backends.all(), changes, clock, () -> ChangelogStore.purgeDelayMillis(store));
      PersistentSearches persistentSearches =
          new PersistentSearches(() -> live.global().persistentSearch(), server.logs);
      server.persistentSearches = persistentSearches;
      changes.register(persistentSearches);
      changes.register(groups.privileges());
      server.metrics.bindPersistentSearches(
          persistentSearches::active, persistentSearches::overflowed);
      List<DirectoryBackend> namingContexts =
          new ArrayList<>(
              List.of(
                  new RootDse(built::get),
                  new SchemaBackend(schema),
                  new ConfigBackend(
                      new ConfigEditor(store, LiveConfiguration::checkApplicable),
                      live,
                      server.logs),
                  new MonitorEntries(
                      server.metrics,
                      backends::all,
                      workers,
                      RootDse.VENDOR_VERSION,
                      server::replicationStatus),
                  server.tasks,
                  new ChangelogBackend(changelog)));
      backends.all().forEach(b -> namingContexts.add(new StoredBackend(built::get, b, changes)));
      ServerContext context =
          new ServerContext(
              backends,
              schema,
              rootUsers,
              live,
              ssl,
              new BackendRouter(namingContexts),
              security.access(),
              security.passwordPolicy(),
              groups,
              server.replication == null ? WritePath.LOCAL : server.replication,
              applier,
              changelog);
      built.set(context);
      if (server.replication != null) {
        server.startReplication();
        server.metrics.bindReplication(server::replicationStatus);
      }
      server.shutdownGrace =
          () -> Duration.ofSeconds(live.global().requestLimits().shutdownGraceSeconds());
      RequestRouter router =
          new RequestRouter(
              context, new OperationLogging(server.logs, server.metrics), persistentSearches);
      server.logStorageHealth();
      for (ConnectionHandlerConfig handler : config.connectionHandlers()) {
        if (handler.enabled()) {
          server.listen(handler, router, ssl);
        }
      }
      server.serveHttp(config.global().http());
      server.markStarted();
      server.preloadCaches(config.backends(), clock);
      server.logs.error(
          ErrorSeverity.INFO,
          "CORE",
          "RockDS started: "
              + server.describeListeners().replace('\n', ' ')
              + " (transport "
              + Transport.SELECTED.label()
              + ")");
      return server;
    } catch (Exception | Error e) {
      // Also a checked exception Netty rethrows undeclared, and an error (a native library that
      // does not match its classes): the event loops, which would keep the process alive, stop.
      server.close();
      throw e;
    }
  }

  /**
   * The expiry of the certificate the listeners were just given (a replaced keystore applies at
   * restart).
   */
  private static java.time.Instant certificateExpiry(Instance instance, TlsStoresConfig stores)
      throws ConfigException {
    Path keyStore = instance.resolve(stores.keyStore());
    try {
      return TlsContexts.certificateExpiry(keyStore, instance.resolve(stores.keyStorePin()));
    } catch (IOException | GeneralSecurityException e) {
      throw new ConfigException(
          "cannot read the certificate of " + keyStore + ": " + e.getMessage(), e);
    }
  }

  /** The listeners' TLS, from the key and trust manager providers. */
  private static SslContext tls(Instance instance, TlsStoresConfig stores) throws ConfigException {
    Path keyStore = instance.resolve(stores.keyStore());
    try {
      return TlsContexts.forKeyStore(
          keyStore,
          instance.resolve(stores.keyStorePin()),
          stores.trustStore() == null ? null : instance.resolve(stores.trustStore()),
          instance.resolve(stores.trustStorePin()));
    } catch (IOException | GeneralSecurityException e) {
      throw new ConfigException("cannot set up TLS from " + keyStore + ": " + e.getMessage(), e);
    }
  }

  private void serveHttp(GlobalConfig.HttpEndpoint endpoint) throws ConfigException {
    if (endpoint.port() < 0) {
      return;
    }
    try {
      http =
          new MetricsHttpServer(
              endpoint.address(),
              endpoint.port(),
              metrics,
              () -> ready && backendsHealthy() && replicationApplies(),
              () -> replication == null ? null : Writability.refusal(replicationStatus()));
    } catch (IOException e) {
      throw new ConfigException(
          "cannot serve /metrics on "
              + endpoint.address()
              + ":"
              + endpoint.port()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  /** False while a backend cannot write (a full disk): /health then answers 503. */
  private boolean backendsHealthy() {
    return backends.all().stream().allMatch(b -> b.health().isHealthy());
  }

  /** False while this server does not apply the replicated writes (it would serve stale data). */
  private boolean replicationApplies() {
    io.rockds.replication.GroupStatus group = replicationStatus();
    return group == null || group.applying();
  }

  /** The error log hears when a backend stops writing and when it writes again. */
  /**
   * Fills each backend's block cache in the background while the server serves ({@code
   * preload-time-limit}), and logs what each preload read.
   */
  private void preloadCaches(List<BackendConfig> configs, Clock clock) {
    for (BackendConfig config : configs) {
      Backend backend = backends.get(config.id());
      if (backend == null) {
        continue;
      }
      backend.startPreload(Duration.ofMillis(config.preloadMillis()), clock);
      backend
          .preload()
          .ifPresent(
              preload ->
                  preload
                      .result()
                      .thenAccept(
                          r ->
                              logs.error(
                                  ErrorSeverity.INFO,
                                  "BACKEND",
                                  String.format(
                                      Locale.ROOT,
                                      "backend %s: preload read %,d records into the block cache"
                                          + " in %.1f s (%s); the cache holds %,d bytes",
                                      backend.id(),
                                      r.keys(),
                                      r.elapsed().toMillis() / 1000.0,
                                      r.outcome().label(),
                                      backend.blockCacheUsage()))));
    }
  }

  private void logStorageHealth() {
    for (Backend backend : backends.all()) {
      backend
          .health()
          .onChange(
              problem -> {
                if (problem != null) {
                  logs.error(
                      ErrorSeverity.ERROR,
                      "BACKEND",
                      problem.message()
                          + "; reads go on, writes are refused"
                          + " until the storage recovers");
                } else {
                  logs.error(
                      ErrorSeverity.INFO, "BACKEND", "backend " + backend.id() + " writes again");
                }
              });
    }
  }

  /**
   * A backend behind the newest replication snapshot of the instance (the leader sent it, or the
   * database was lost) gets the snapshot's checkpoint before it opens.
   */
  private static void installReplicationSnapshot(Instance instance, ServerConfig config)
      throws ConfigException {
    Path directory = ReplicatedWrites.directory(instance);
    try {
      BackendSnapshots.installBehind(instance, config.backends(), directory);
    } catch (IOException | RuntimeException e) {
      throw new ConfigException(
          "cannot install the replication snapshot of " + directory + ": " + e.getMessage(), e);
    }
  }

  /**
   * The shared settings (cn=schema, the shared part of cn=config) of the newest replication
   * snapshot of the instance, when they are newer than the server's, replace its own before they
   * are read.
   */
  private static void installReplicatedSettings(Instance instance, ConfigStore store)
      throws ConfigException {
    Path directory = ReplicatedWrites.directory(instance);
    try {
      ReplicatedSettings.installBehind(store, instance.schemaDirectory(), directory);
    } catch (IOException | RuntimeException e) {
      throw new ConfigException(
          "cannot install the shared settings of the replication snapshot of "
              + directory
              + ": "
              + e.getMessage(),
          e);
    }
  }

  private static ReplicatedSettings replicatedSettings(Instance instance, ConfigStore store)
      throws ConfigException {
    try {
      return new ReplicatedSettings(store, instance.schemaDirectory());
    } catch (IOException e) {
      throw new ConfigException(
          "cannot read the position of the replicated settings: " + e.getMessage(), e);
    }
  }

  /**
   * Completes once the server must be restarted (a replication snapshot to install before the
   * backends open), with the reason: {@link Main} then closes it and starts it again.
   */
  public CompletableFuture<String> restartRequested() {
    return restartRequested;
  }

  private void requestRestart(String reason) {
    logs.error(ErrorSeverity.WARNING, "CORE", "restarting: " + reason);
    restartRequested.complete(reason);
  }

  private void startReplication() throws ConfigException {
    Path directory = ReplicatedWrites.directory(instance);
    try {
      replication.start(directory);
    } catch (IOException | RuntimeException e) {
      throw new ConfigException(
          "cannot start replication (log in " + directory + "): " + e.getMessage(), e);
    }
  }

  /** The replication group as this server sees it; null when it runs alone or cannot tell. */
  private io.rockds.replication.GroupStatus replicationStatus() {
    try {
      return replication == null ? null : replication.status();
    } catch (IOException e) {
      return null;
    }
  }

  /** The replication group this server is a member of, or null when it runs alone. */
  public ReplicatedWrites replication() {
    return replication;
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
      Files.deleteIfExists(instance.stoppedFile());
      Files.writeString(instance.startedFile(), describeListeners() + "\n", StandardCharsets.UTF_8);
      ready = true;
    } catch (IOException e) {
      throw new ConfigException(
          "cannot write " + instance.startedFile() + ": " + e.getMessage(), e);
    }
  }

  private void listen(ConnectionHandlerConfig handler, RequestRouter router, SslContext ssl)
      throws BindException, InterruptedException {
    ProtocolSettings settings =
        new ProtocolSettings(
            handler.listenAddress(),
            handler.listenPort(),
            handler.useSsl() ? ssl : null,
            handler.maxRequestSizeAnonymous(),
            handler.maxRequestSizeAuthenticated(),
            ProtocolSettings.DEFAULT_MAX_BER_DEPTH,
            handler.maxConnections(),
            Duration.ofSeconds(handler.idleTimeSeconds()),
            handler.maxOutstandingRequests(),
            Duration.ofMillis(handler.requestReadTimeoutMillis()));
    LdapServer listener =
        new LdapServer(settings, router, workers, bossGroup, ioGroup, connectionLimit);
    listener.start();
    listeners.add(listener);
    LOG.info(
        "{} listening on {}://{}:{}",
        handler.name(),
        handler.useSsl() ? "ldaps" : "ldap",
        handler.listenAddress(),
        listener.port());
  }

  /** One line per listener, e.g. {@code ldap://127.0.0.1:1389}. */
  public String describeListeners() {
    StringBuilder sb = new StringBuilder();
    for (LdapServer l : listeners) {
      if (sb.length() > 0) {
        sb.append('\n');
      }
      sb.append(l.settings().sslContext() != null ? "ldaps://" : "ldap://")
          .append(l.settings().host())
          .append(':')
          .append(l.port());
    }
    return sb.toString();
  }

  public List<LdapServer> listeners() {
    return List.copyOf(listeners);
  }

  /** The port of the first plain LDAP listener. */
  public int ldapPort() {
    return listeners.stream()
        .filter(l -> l.settings().sslContext() == null)
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no plain LDAP listener"))
        .port();
  }

  /** The port of the first LDAPS listener, or -1. */
  public int ldapsPort() {
    return listeners.stream()
        .filter(l -> l.settings().sslContext() != null)
        .mapToInt(LdapServer::port)
        .findFirst()
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
   * Graceful shutdown, in an order that never closes RocksDB under a reader: stops accepting and
   * reading requests; lets running operations finish for up to the grace period
   * (shutdown-grace-period); then cancels what still runs (a Notice of Disconnection closes every
   * connection, which abandons its operations, and a running task stops between two batches) and
   * waits for the workers and the task to end, which releases their iterators and snapshots; stops
   * the HTTP endpoint (a scrape reads RocksDB statistics); and only then closes the backends
   * (syncing the WAL, releasing the lock). If an operation still runs after all that, the backends
   * are left open for the process exit to release (every acknowledged write is already in the
   * synced WAL) and the shutdown is reported unclean ({@link #closedCleanly()}, the error log, and
   * {@link Instance#stoppedFile()}, which stop-ds reads).
   */
  @Override
  public void close() {
    if (closing) {
      return;
    }
    closing = true;
    ready = false;
    listeners.forEach(LdapServer::stopAccepting);
    listeners.forEach(LdapServer::stopReading);
    long deadline = System.nanoTime() + shutdownGrace.get().toNanos();
    try {
      for (LdapServer listener : listeners) {
        listener.awaitIdle(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    listeners.forEach(l -> l.disconnectAll("the server is shutting down"));
    boolean tasksStopped = tasks.stop(CANCEL_WAIT);
    boolean workersStopped = stopWorkers();
    if (persistentSearches != null) {
      persistentSearches.close();
    }
    bossGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    ioGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    if (http != null) {
      http.close();
    }
    cleanly = tasksStopped && workersStopped;
    if (replication != null) {
      try {
        replication.close(); // its apply thread writes to the backends
      } catch (IOException e) {
        logs.error(ErrorSeverity.WARNING, "REPLICATION", "stopping replication: " + e);
      }
    }
    if (cleanly) {
      backends.close();
      logs.error(ErrorSeverity.INFO, "CORE", "RockDS stopped");
    } else {
      logs.error(
          ErrorSeverity.ERROR,
          "CORE",
          "RockDS stopped uncleanly: "
              + (workersStopped ? "" : workers.getActiveCount() + " operations ")
              + (tasksStopped ? "" : "a task ")
              + "still ran after being cancelled; the database was left open for the process exit to release");
    }
    logs.close();
    metrics.close();
    try {
      Files.deleteIfExists(instance.startedFile());
      Files.writeString(
          instance.stoppedFile(),
          cleanly
              ? STOPPED_CLEANLY + "\n"
              : "operations still ran after being cancelled; the database was not closed\n",
          StandardCharsets.UTF_8);
    } catch (IOException ignored) {
      // The markers only help start-ds and stop-ds, which then report what they cannot tell.
    }
    lock.close();
  }

  /** True once {@link #close} closed the backends after every operation and task had ended. */
  public boolean closedCleanly() {
    return cleanly;
  }

  /**
   * Waits for the workers to finish what the disconnections abandoned (operations poll their stop
   * flag), then interrupts those blocked elsewhere; true once none runs.
   */
  private boolean stopWorkers() {
    workers.shutdown();
    try {
      if (workers.awaitTermination(CANCEL_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        return true;
      }
      workers.shutdownNow();
      return workers.awaitTermination(CANCEL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      workers.shutdownNow();
      Thread.currentThread().interrupt();
      return workers.isTerminated();
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
