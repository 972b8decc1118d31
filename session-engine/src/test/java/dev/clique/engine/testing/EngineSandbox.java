package dev.clique.engine.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clique.engine.Engine;
import dev.clique.engine.catalogue.CliCatalogue;
import dev.clique.engine.home.CliqueHome;
import dev.clique.engine.session.NewSession;
import dev.clique.engine.session.SessionRecord;
import dev.clique.engine.session.SessionService;
import dev.clique.engine.session.SessionStore;
import dev.clique.engine.session.SessionView;
import dev.clique.engine.session.WaitOutcome;
import dev.clique.engine.token.TokenStore;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway clique: its own home (in the test's temp directory), its own tmux socket, and a
 * {@code clis.toml} with the fixture programs of {@code src/test/resources/fixtures} as CLIs. The
 * shell starts without rc files, so a prompt is the same on every machine. Closing it closes what
 * it started and kills its own tmux server only.
 */
public final class EngineSandbox implements AutoCloseable {
  private final TmuxSandbox tmux = new TmuxSandbox();
  private final Path home;
  private final Path work;
  private final Map<String, String> env;
  private final List<AutoCloseable> started = new ArrayList<>();

  public EngineSandbox(Path dir) throws IOException {
    this.home = dir.resolve("home");
    this.work = Files.createDirectories(dir.resolve("work"));
    Files.createDirectories(home);
    this.env =
        Map.of(
            "CLIQUE_HOME", home.toString(),
            "CLIQUE_TMUX_SOCKET", tmux.socket(),
            "PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"),
            "HOME", home.toString(),
            // Never the real user's other tmux servers.
            "CLIQUE_DISCOVER", "off");
    Files.writeString(
        home.resolve("clis.toml"),
        String.join(
            "\n",
            "[cli.shell]",
            "command = \"bash\"",
            "args = [\"--norc\", \"--noprofile\"]",
            "",
            "[cli.prompter]",
            "label = \"Prompter\"",
            "command = \"python3\"",
            "args = [\"-u\", \"" + fixture("prompt.py") + "\"]",
            "",
            "[cli.clock]",
            "label = \"Clock\"",
            "command = \"python3\"",
            "args = [\"" + fixture("clock.py") + "\"]",
            "",
            "[cli.guarded]",
            "label = \"Guarded\"",
            "command = \"python3\"",
            "args = [\"-u\", \"" + fixture("guarded.py") + "\"]",
            "",
            "[cli.looper]",
            "label = \"Looper\"",
            "command = \"python3\"",
            "args = [\"" + fixture("loop.py") + "\"]",
            ""));
  }

  /** A fixture program's path on disk. */
  public static Path fixture(String name) {
    URL url = EngineSandbox.class.getResource("/fixtures/" + name);
    if (url == null) {
      throw new IllegalArgumentException("no fixture " + name);
    }
    try {
      return Path.of(url.toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  public Map<String, String> env() {
    return env;
  }

  public Path home() {
    return home;
  }

  /** A directory sessions can run in. */
  public Path work() {
    return work;
  }

  public TmuxSandbox tmux() {
    return tmux;
  }

  /** A started session service on this sandbox, built as the engine builds it. */
  public SessionService service() {
    CliqueHome cliqueHome = new CliqueHome(home);
    Clock clock = Clock.systemUTC();
    SessionService service =
        SessionService.builder()
            .store(SessionStore.open(cliqueHome.stateFile()))
            .tmux(tmux.tmux())
            .catalogue(CliCatalogue.load(cliqueHome.clisFile(), env))
            .tokens(TokenStore.inMemory(clock))
            .clock(clock)
            .engineUrl(() -> "http://127.0.0.1:9")
            .build();
    service.start();
    started.add(service);
    return service;
  }

  /** The real engine with its HTTP API on an ephemeral loopback port. */
  public Engine engine() throws IOException {
    Engine engine = Engine.start(env, "127.0.0.1", 0, true, TestEngine.VERSION);
    started.add(engine);
    return engine;
  }

  /** Stops something this sandbox started before the test ends (an engine restart). */
  public void stop(AutoCloseable thing) throws Exception {
    started.remove(thing);
    thing.close();
  }

  public SessionRecord create(SessionService service, String cli) throws Exception {
    return service.create(new NewSession(cli, work.toString(), null, null));
  }

  /** Waits (the engine's own wait) until the session is in one of {@code states}. */
  public static WaitOutcome await(
      SessionService service, String id, Duration within, String... states) throws Exception {
    WaitOutcome outcome =
        service
            .await(id, Set.of(states), within.toMillis())
            .get(within.toMillis() + 5_000, TimeUnit.MILLISECONDS);
    assertThat(outcome.matched())
        .as(
            "session %s should reach %s within %s but is %s; pane:%n%s",
            id, List.of(states), within, outcome.state(), pane(service, id))
        .isTrue();
    return outcome;
  }

  public static SessionView view(SessionService service, String id) {
    return service.session(id).orElseThrow();
  }

  /** The pane's last lines, for failure messages. */
  public static String pane(SessionService service, String id) {
    try {
      return String.join("\n", service.peek(id, 40).lines());
    } catch (Exception e) {
      return "(pane unreadable: " + e.getMessage() + ")";
    }
  }

  @Override
  public void close() {
    for (AutoCloseable thing : started) {
      try {
        thing.close();
      } catch (Exception e) {
        // closing is best effort; the server below goes anyway
      }
    }
    tmux.close();
  }
}
