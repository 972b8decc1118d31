package dev.clique.cli;

import dev.clique.client.CliqueClient;
import dev.clique.client.CliqueException;
import dev.clique.engine.EngineSettings;
import dev.clique.engine.home.CliqueHome;
import dev.clique.engine.token.MintedToken;
import dev.clique.engine.token.Scope;
import dev.clique.engine.token.Token;
import dev.clique.engine.token.TokenStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The engine of {@code clique mcp --embedded}: the home's one engine, whichever process runs it. A
 * process mints its own read-only token into the home's store (revoked when it exits; one a kill -9
 * left is swept by the next), then uses the engine another process runs for the home ({@code clique
 * serve}, or another {@code clique mcp --embedded}), or, when none does, starts it in-process. One
 * that uses another's engine waits on the home's engine lock and takes over when that process ends.
 */
final class HomeEngine implements AutoCloseable {
  /** The name of a process's token, then its pid: how a sweep tells whose process is gone. */
  static final String TOKEN_NAME = "mcp-embedded pid ";

  /** How long a first call waits for an engine another process is starting. */
  private static final Duration FIRST_ENGINE = Duration.ofSeconds(30);

  /** How long a call that found its engine gone waits for the one that takes over. */
  private static final Duration TAKEOVER = Duration.ofSeconds(5);

  private static final long LOOK_AGAIN_MILLIS = 20;

  private final Map<String, String> env;
  private final CliqueHome home;
  private final PrintWriter err;
  private final CompletableFuture<Void> ready = new CompletableFuture<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Executor waiting =
      task -> {
        Thread thread = new Thread(task, "clique-engine-wait");
        thread.setDaemon(true);
        thread.start();
      };
  private volatile String tokenId;
  private volatile String token;
  private volatile EngineClaim claim;
  private volatile EmbeddedEngine own;
  private volatile Target target;

  /** An engine and the client this process calls it with. */
  private record Target(EngineClaim.Advert advert, CliqueClient client) {}

  private HomeEngine(Map<String, String> env, PrintWriter err) {
    this.env = env;
    this.home = EngineSettings.fromEnvironment(env).home();
    this.err = err;
  }

  /**
   * Starts finding (or starting) the home's engine beside the handshake, which needs none of it.
   */
  static HomeEngine open(Map<String, String> env, PrintWriter err) {
    HomeEngine engine = new HomeEngine(env, err);
    Thread starting = new Thread(engine::run, "clique-embedded-start");
    starting.setDaemon(true);
    starting.start();
    return engine;
  }

  /**
   * The client the MCP server calls: the first call waits for an engine, a later one follows it.
   */
  CliqueClient client() {
    return StartingClient.of(
        new StartingClient.Engines() {
          @Override
          public CompletableFuture<CliqueClient> current() {
            Target now = target;
            if (now != null) {
              return CompletableFuture.completedFuture(now.client());
            }
            return ready.thenComposeAsync(
                started -> CompletableFuture.completedFuture(await(null, FIRST_ENGINE)), waiting);
          }

          @Override
          public CompletableFuture<CliqueClient> after(CliqueClient gone) {
            Target was = target;
            EngineClaim.Advert goneAdvert =
                was != null && was.client() == gone ? was.advert() : null;
            return CompletableFuture.supplyAsync(() -> await(goneAdvert, TAKEOVER), waiting);
          }
        });
  }

  /** Mints the token, then runs the engine or waits to take it over; says why if it cannot. */
  private void run() {
    try {
      home.ensureExists();
      TokenStore tokens = TokenStore.open(home.tokensFile(), Clock.systemUTC());
      sweepTokensOfEndedProcesses(tokens);
      MintedToken minted =
          tokens.create(TOKEN_NAME + ProcessHandle.current().pid(), Set.of(Scope.READ), "");
      tokenId = minted.token().id();
      token = minted.secret();
      claim = EngineClaim.of(home);
      if (!claim.tryAcquire()) {
        ready.complete(null); // the calls go to the engine another process runs
        if (!claim.acquire()) {
          return; // this process is ending
        }
      }
      if (closed.get()) {
        return;
      }
      own = EmbeddedEngine.start(env);
      claim.advertise(own.url(), Optional.empty());
      switchTo(new EngineClaim.Advert(own.url(), ProcessHandle.current().pid(), ""));
      ready.complete(null);
    } catch (IOException | RuntimeException e) {
      if (closed.get()) {
        return;
      }
      err.println("clique mcp: could not start the embedded engine: " + e.getMessage());
      err.flush();
      if (!ready.completeExceptionally(e)) {
        giveUpTheClaim(); // another process may manage where this one could not
      }
    }
  }

  /**
   * Waits until an engine other than {@code gone}'s says where it listens, up to {@code wait}, and
   * makes it the target.
   */
  private CliqueClient await(EngineClaim.Advert gone, Duration wait) {
    long deadline = System.nanoTime() + wait.toNanos();
    while (!closed.get()) {
      Target now = target;
      if (now != null && !now.advert().equals(gone)) {
        return now.client();
      }
      Optional<EngineClaim.Advert> advert = EngineClaim.current(home);
      if (advert.isPresent() && !advert.get().equals(gone)) {
        return switchTo(advert.get()).client();
      }
      if (System.nanoTime() > deadline) {
        break;
      }
      try {
        Thread.sleep(LOOK_AGAIN_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    throw new CompletionException(
        new CliqueException(
            CliqueException.Kind.UNREACHABLE,
            "no engine is running for " + home.dir() + " (it did not say where it listens)",
            -1,
            null,
            null));
  }

  private synchronized Target switchTo(EngineClaim.Advert advert) {
    Target now = target;
    if (now != null && now.advert().equals(advert)) {
      return now;
    }
    CliqueClient.Builder builder = CliqueClient.builder().baseUrl(advert.url()).token(token);
    if (!advert.certificateSha256().isEmpty()) {
      builder.certificateSha256(advert.certificateSha256());
    }
    Target next = new Target(advert, builder.build());
    target = next;
    return next;
  }

  /** Tokens of processes that ended without revoking theirs (kill -9). */
  private static void sweepTokensOfEndedProcesses(TokenStore tokens) throws IOException {
    for (Token each : tokens.listing()) {
      if (each.name().startsWith(TOKEN_NAME)) {
        try {
          long pid = Long.parseLong(each.name().substring(TOKEN_NAME.length()));
          if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            continue;
          }
        } catch (NumberFormatException e) {
          // not a name this class gives: swept as well
        }
        tokens.revoke(each.id());
      }
    }
  }

  private void giveUpTheClaim() {
    EngineClaim held = claim;
    if (held != null) {
      held.close();
    }
  }

  /**
   * Stops this process's engine if it runs one, lets another take over, and revokes this process's
   * token. Once: a signal's stop and the end of stdin may both ask.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    EmbeddedEngine running = own;
    if (running != null) {
      running.close();
    }
    giveUpTheClaim();
    String id = tokenId;
    if (id != null) {
      try {
        TokenStore.open(home.tokensFile(), Clock.systemUTC()).revoke(id);
      } catch (IOException | RuntimeException e) {
        // the next process on the home sweeps it
      }
    }
  }
}
