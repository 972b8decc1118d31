package dev.clique.engine;

import dev.clique.engine.catalogue.CliCatalogue;
import dev.clique.engine.catalogue.PriceTable;
import dev.clique.engine.discovery.Discovery;
import dev.clique.engine.discovery.DiscoverySettings;
import dev.clique.engine.home.CliqueHome;
import dev.clique.engine.hooks.HookReports;
import dev.clique.engine.http.ApiHandler;
import dev.clique.engine.http.HostGuard;
import dev.clique.engine.http.OperatorSocket;
import dev.clique.engine.http.TlsKeystore;
import dev.clique.engine.notify.Notifier;
import dev.clique.engine.session.SessionService;
import dev.clique.engine.session.SessionStore;
import dev.clique.engine.session.SessionUsage;
import dev.clique.engine.tmux.TmuxProcess;
import dev.clique.engine.token.TokenStore;
import dev.clique.engine.transcript.Transcripts;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.unixdomain.server.UnixDomainServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running session engine: the sessions in tmux and the HTTP API in front of them. {@code clique
 * serve} runs one as a daemon; {@code clique mcp --embedded} runs one inside the MCP process.
 */
public final class Engine implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Engine.class);
  private static final long USAGE_FLUSH_SECONDS = 30;
  private static final Duration TMUX_TIMEOUT = Duration.ofSeconds(5);
  private static final String JETTY_REFERENCES_PER_CACHE_LINE =
      "org.eclipse.jetty.util.referencesPerCacheLine";
  private final Server server;
  private final SessionService sessions;
  private final TokenStore tokens;
  private final String url;
  private final TlsKeystore tls;
  private final ScheduledExecutorService housekeeping;
  private final Notifier notifier;
  private final HookReports hookReports;

  private Engine(
      Server server,
      SessionService sessions,
      TokenStore tokens,
      String url,
      TlsKeystore tls,
      ScheduledExecutorService housekeeping,
      Notifier notifier,
      HookReports hookReports) {
    this.server = server;
    this.hookReports = hookReports;
    this.sessions = sessions;
    this.tokens = tokens;
    this.url = url;
    this.tls = tls;
    this.housekeeping = housekeeping;
    this.notifier = notifier;
  }

  /**
   * Starts an engine with the settings {@code env} gives ({@link EngineSettings#fromEnvironment}).
   *
   * @param host the address to listen on (loopback unless the operator says otherwise)
   * @param port the port, or 0 for an ephemeral one
   * @param ownsHome true for {@code clique serve}, which takes the home's operator socket and
   *     adopts the sessions left without a record; false for the engine of {@code clique mcp
   *     --embedded}
   * @param version the version its answers name, as the assembling command has it
   */
  public static Engine start(
      Map<String, String> env, String host, int port, boolean ownsHome, String version)
      throws IOException {
    return start(EngineSettings.fromEnvironment(env), host, port, ownsHome, version, null);
  }

  /**
   * Starts an engine with the settings {@code env} gives, speaking HTTPS with {@code tls}, or plain
   * HTTP when it is {@code null}.
   *
   * @see #start(EngineSettings, String, int, boolean, String, TlsKeystore)
   */
  public static Engine start(
      Map<String, String> env,
      String host,
      int port,
      boolean ownsHome,
      String version,
      TlsKeystore tls)
      throws IOException {
    return start(EngineSettings.fromEnvironment(env), host, port, ownsHome, version, tls);
  }

  /**
   * Starts an engine that speaks HTTPS with {@code tls}, or plain HTTP when it is {@code null}.
   * With TLS, the engine's own sessions report their hooks to a second, plain listener on an
   * ephemeral loopback port: their CLIs, and curl, know nothing of the engine's certificate.
   *
   * @param settings what the environment tells the engine, read once
   * @param host the address to listen on (loopback unless the operator says otherwise)
   * @param port the port, or 0 for an ephemeral one
   * @param ownsHome true for {@code clique serve}, which takes the home's operator socket and
   *     adopts the sessions left without a record; false for the engine of {@code clique mcp
   *     --embedded}
   * @param version the version its answers name, as the assembling command has it
   * @param tls the engine's key and certificate, or {@code null} for plain HTTP
   */
  public static Engine start(
      EngineSettings settings,
      String host,
      int port,
      boolean ownsHome,
      String version,
      TlsKeystore tls)
      throws IOException {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(settings, "settings");
    CliqueHome home = settings.home();
    home.ensureExists();
    Clock clock = Clock.systemUTC();
    TmuxProcess tmux = new TmuxProcess("tmux", settings.tmuxSocket(), TMUX_TIMEOUT);
    if (!tmux.installed()) {
      throw new IOException(
          "tmux is not installed: install it (for example `sudo apt-get install tmux` or `brew"
              + " install tmux`) and start clique again");
    }
    // The home's tokens, also for an embedded engine: the other assistants of the home reach it
    // with tokens they mint into that file.
    TokenStore tokens = TokenStore.open(home.tokensFile(), clock);
    CliCatalogue catalogue =
        CliCatalogue.load(home.clisFile(), settings.path(), settings.userHome());
    SessionStore store = SessionStore.open(home.stateFile());

    // Jetty pads its queues by how many references fill a cache line, which it works out by asking
    // the platform MBean server (the whole of JMX, some 3 MiB resident) unless told: 16, for
    // 64-byte lines and the compressed references of any heap under 32 GiB. A wrong guess only
    // pads a queue differently.
    if (System.getProperty(JETTY_REFERENCES_PER_CACHE_LINE) == null) {
      System.setProperty(JETTY_REFERENCES_PER_CACHE_LINE, "16");
    }
    // Waits hold no thread, and two cores gain nothing from more: a burst of connections must not
    // leave dozens of idle threads behind.
    QueuedThreadPool threads = new QueuedThreadPool(16, 2);
    threads.setName("engine-http");
    threads.setDaemon(true);
    Server server = new Server(threads);
    ServerConnector connector =
        tls == null ? new ServerConnector(server, 1, 1) : tls.connector(server);
    connector.setHost(host);
    connector.setPort(port);
    server.addConnector(connector);
    ServerConnector hooks = connector;
    if (tls != null) {
      hooks = new ServerConnector(server, 1, 1);
      hooks.setHost("127.0.0.1");
      hooks.setPort(0);
      server.addConnector(hooks);
    }
    // Past half of the descriptors the process may hold, new connections wait in the backlog
    // instead of failing every answer with "too many open files".
    server.addBean(
        hooks == connector
            ? new NetworkConnectionLimit(connectionLimit(), connector)
            : new NetworkConnectionLimit(connectionLimit(), connector, hooks));
    // Only the engine that owns the home: an embedded one has no operator.
    Optional<UnixDomainServerConnector> operator =
        ownsHome ? OperatorSocket.claim(server, home.operatorSocket()) : Optional.empty();

    String[] hookUrl = new String[1];
    HookReports hookReports = HookReports.system();
    AtomicReference<Notifier> notifying = new AtomicReference<>(); // started once the URL is known
    Transcripts transcripts = new Transcripts(settings.transcriptRoots());
    Discovery discovery = discovery(settings.discovery(), catalogue, tmux, clock);
    discovery.readStatesWith(transcripts, settings.userHome());
    discovery.readHooksFrom(hookReports);
    SessionService sessions =
        SessionService.builder()
            .store(store)
            .tmux(tmux)
            .discovery(discovery)
            .catalogue(catalogue)
            .tokens(tokens)
            .clock(clock)
            .engineUrl(() -> hookUrl[0])
            .usage(
                new SessionUsage(
                    transcripts, settings.userHome(), PriceTable.load(home.pricesFile())))
            .build();
    server.setHandler(
        new ApiHandler(
            sessions,
            transcripts,
            tokens,
            new HostGuard(settings.allowedHosts()),
            clock,
            version,
            settings.userHome(),
            hookReports,
            () -> {
              Notifier told = notifying.get();
              return told == null ? List.of() : told.status();
            }));
    server.setErrorHandler(ApiHandler.errorHandler());
    try {
      server.start();
    } catch (Exception e) {
      sessions.close();
      throw new IOException(
          "the engine could not listen on " + host + ":" + port + ": " + e.getMessage(), e);
    }
    String url =
        (tls == null ? "http://" : "https://") + hostForUrl(host) + ":" + connector.getLocalPort();
    hookUrl[0] = tls == null ? url : "http://127.0.0.1:" + hooks.getLocalPort();
    if (operator.isPresent()) {
      OperatorSocket.makePrivate(home.operatorSocket());
    }
    if (ownsHome) {
      sessions.adoptOrphans(); // only the engine that owns the home: never an embedded one
      sessions.adoptLateOrphans();
    }
    sessions.start();
    ScheduledExecutorService housekeeping =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "engine-housekeeping");
              thread.setDaemon(true);
              return thread;
            });
    housekeeping.scheduleWithFixedDelay(
        () -> {
          hookReports.forgetEnded();
          try {
            tokens.flushUsage();
          } catch (IOException | RuntimeException e) {
            log.debug("token usage not written: {}", e.getMessage());
          }
        },
        USAGE_FLUSH_SECONDS,
        USAGE_FLUSH_SECONDS,
        TimeUnit.SECONDS);
    // Its own thread follows the change feed: telling a person never slows the watcher.
    Notifier notifier = Notifier.start(home.notifyFile(), sessions, url, clock);
    notifying.set(notifier);
    return new Engine(server, sessions, tokens, url, tls, housekeeping, notifier, hookReports);
  }

  /** The base URL clients use, such as {@code http://127.0.0.1:3200} or {@code https://...}. */
  public String url() {
    return url;
  }

  /**
   * The SHA-256 fingerprint of the certificate an HTTPS engine shows, as {@code openssl x509 -noout
   * -fingerprint -sha256} prints it ({@code AB:CD:...}); empty for plain HTTP.
   */
  public Optional<String> certificateSha256() {
    return Optional.ofNullable(tls).map(TlsKeystore::sha256);
  }

  public TokenStore tokens() {
    return tokens;
  }

  public SessionService sessions() {
    return sessions;
  }

  /**
   * What the CLIs outside the engine's own sessions reported through the hooks a person installed
   * ({@code clique hooks install}), over the operator socket.
   */
  public HookReports hookReports() {
    return hookReports;
  }

  /** Blocks until the engine stops. */
  public void join() throws InterruptedException {
    server.join();
  }

  @Override
  public void close() {
    notifier.close();
    housekeeping.shutdownNow();
    sessions.close();
    try {
      tokens.flushUsage();
    } catch (IOException e) {
      // last-used times are a convenience; losing the newest ones is harmless
    }
    try {
      server.stop();
    } catch (Exception e) {
      // stopping is best effort; the process is usually exiting
    }
  }

  /**
   * The sessions on the user's other tmux servers, unless {@code CLIQUE_DISCOVER=off}: in the
   * socket directory tmux itself would use ({@code TMUX_TMPDIR} of the settings), never clique's
   * own socket.
   */
  private static Discovery discovery(
      DiscoverySettings settings, CliCatalogue catalogue, TmuxProcess tmux, Clock clock) {
    if (!settings.enabled()) {
      log.info("discovery is off: only clique's own sessions are listed");
      return Discovery.off(catalogue);
    }
    return new Discovery(settings, catalogue, tmux.socketFile(), clock);
  }

  private static int connectionLimit() {
    return (int) Math.max(64, Math.min(50_000, ApiHandler.maxDescriptors() / 2));
  }

  private static String hostForUrl(String host) {
    try {
      InetAddress address = InetAddress.getByName(host);
      if (address.isAnyLocalAddress()) {
        return "127.0.0.1";
      }
      String literal = address.getHostAddress();
      return literal.contains(":") ? "[" + literal + "]" : literal;
    } catch (IOException e) {
      return host;
    }
  }
}
