package dev.clique.cli;

import dev.clique.engine.Engine;
import dev.clique.engine.EngineSettings;
import dev.clique.engine.http.TlsKeystore;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code clique serve}: the session engine and its HTTP API, until stopped. */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
      "Run the session engine and its HTTP API (default 127.0.0.1:3200).",
      "HTTPS with CLIQUE_TLS_KEYSTORE (PKCS#12) and CLIQUE_TLS_PASSWORD_FILE (mode 0600):",
      "it prints the certificate's SHA-256 fingerprint for clients to pin."
    })
final class ServeCommand implements Callable<Integer> {
  /** The engine this process started, for {@link #awaitStarted}; null before. */
  private static volatile Engine started;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to listen on.")
  String host;

  @Option(names = "--port", defaultValue = "3200", description = "Port to listen on (0: any).")
  int port;

  @Option(
      names = "--no-discover",
      description =
          "List only clique's own sessions, not those on your other tmux servers"
              + " (as CLIQUE_DISCOVER=off).")
  boolean noDiscover;

  @Override
  public Integer call() {
    clockInLogLines();
    Engine engine;
    Map<String, String> env = Environment.variables();
    try {
      TlsKeystore tls = TlsKeystore.fromEnvironment(env).orElse(null);
      engine =
          Engine.start(
              noDiscover ? Environment.withoutDiscovery(env) : env,
              host,
              port,
              true,
              BuildInfo.current().version(),
              tls);
    } catch (IOException e) {
      spec.commandLine().getErr().println("clique serve: " + e.getMessage());
      return ExitCodes.NOT_CONFIGURED;
    }
    EngineClaim claim = claimTheHome(env, engine);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  engine.close();
                  if (claim != null) {
                    claim.close();
                  }
                },
                "engine-stop"));
    spec.commandLine().getErr().println("clique engine listening on " + engine.url());
    engine
        .certificateSha256()
        .ifPresent(
            sha256 ->
                spec.commandLine()
                    .getErr()
                    .println("clique engine certificate SHA-256 fingerprint: " + sha256));
    spec.commandLine().getErr().flush();
    // Served once picocli has returned (awaitStarted): waiting here, picocli's model of every
    // command stayed reachable all day: 0.5 of the 6 MB live in an idle engine.
    started = engine;
    return ExitCodes.OK;
  }

  /** Blocks until the engine {@code clique serve} started stops; returns at once if none did. */
  static void awaitStarted() throws InterruptedException {
    Engine engine = started;
    if (engine != null) {
      engine.join();
    }
  }

  /**
   * Makes this the home's engine, the one {@code clique mcp --embedded} uses: now if no other
   * process runs it, else once that process ends (a second serve on one home runs all the same).
   * Null when the lock cannot be had at all; the engine serves regardless.
   */
  private EngineClaim claimTheHome(Map<String, String> env, Engine engine) {
    EngineClaim claim;
    try {
      claim = EngineClaim.of(EngineSettings.fromEnvironment(env).home());
    } catch (IOException e) {
      spec.commandLine().getErr().println("clique serve: no engine lock: " + e.getMessage());
      return null;
    }
    // The stream, not this command: waiting for another serve to end, the thread would keep
    // picocli's model of the command line reachable.
    PrintWriter err = spec.commandLine().getErr();
    Thread claiming =
        new Thread(
            () -> {
              try {
                if (claim.tryAcquire() || claim.acquire()) {
                  claim.advertise(engine.url(), engine.certificateSha256());
                }
              } catch (IOException | RuntimeException e) {
                err.println("clique serve: no engine lock: " + e.getMessage());
                err.flush();
              }
            },
            "engine-claim");
    claiming.setDaemon(true);
    claiming.start();
    return claim;
  }

  /**
   * A server's log lines carry the time of day; a user's own settings win. Not for every command:
   * the clock loads the JDK's date and locale machinery (about a hundred classes), and the host of
   * {@code clique mcp} stamps that process's stderr lines itself.
   */
  private static void clockInLogLines() {
    System.getProperties().putIfAbsent("org.slf4j.simpleLogger.showDateTime", "true");
    System.getProperties().putIfAbsent("org.slf4j.simpleLogger.dateTimeFormat", "HH:mm:ss.SSS");
  }
}
