package dev.clique.engine.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clique.engine.catalogue.CliCatalogue;
import dev.clique.engine.testing.MutableClock;
import dev.clique.engine.testing.UserTmux;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One scan among what a socket directory may hold besides a person's tmux servers: a stale socket
 * file, a socket of another user's, a server that hangs up at once, clique's own socket, a file
 * that is no socket. Each is passed over with its cause said once; the good server's session is
 * found all the same, and no socket outside the directory (and the configured one) is ever talked
 * to.
 */
class DiscoveryScanIT {
  @TempDir Path dir;
  private UserTmux user;
  private Path project;
  private Path claude;
  private final List<AutoCloseable> listeners = new java.util.ArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    user = new UserTmux(dir.resolve("t"));
    project = Files.createDirectories(dir.resolve("project")).toRealPath();
    claude = UserTmux.fakeClaude(dir);
  }

  @AfterEach
  void tearDown() throws Exception {
    for (AutoCloseable listener : listeners) {
      listener.close();
    }
    user.close();
  }

  @Test
  void badSocketsAreSkippedWithTheirCauseAndTheScanGoesOn() throws Exception {
    startClaude("good", "review");
    startClaude("own", "clique-own"); // as if it were clique's own socket
    Path stale = user.socket("stale");
    listen(stale).close(); // the file stays, nobody listens: a server that died
    AtomicInteger strangerCalls = new AtomicInteger();
    Path stranger = user.socket("stranger");
    ServerSocketChannel strangers = listen(stranger);
    acceptInBackground(strangers, strangerCalls, false);
    Files.setAttribute(stranger, "unix:uid", 65534);
    Path hangsUp = user.socket("hangs-up");
    acceptInBackground(listen(hangsUp), new AtomicInteger(), true);
    Files.writeString(user.socketDir().resolve("notes.txt"), "not a socket");
    UserTmux elsewhere = new UserTmux(dir.resolve("elsewhere"));
    try {
      elsewhere.run(
          "configured",
          "new-session",
          "-d",
          "-s",
          "configured",
          "-c",
          project.toString(),
          claude.toString());
      DiscoverySettings settings =
          new DiscoverySettings(
              true, false, user.socketDir(), List.of(elsewhere.socket("configured")));
      try (Discovery discovery = discovery(settings, user.socket("own"))) {
        scanUntil(discovery, 2);

        assertThat(discovery.found())
            .extracting(Found::session)
            .containsExactlyInAnyOrder("review", "configured");
        Map<String, String> causes = discovery.causes();
        assertThat(causes.get(stale.toString())).startsWith("no tmux server answers there:");
        assertThat(causes.get(hangsUp.toString())).startsWith("no tmux server answers there:");
        assertThat(causes.get(stranger.toString()))
            .isEqualTo("owned by uid 65534, not this user's: never touched");
        assertThat(causes.values()).allMatch(cause -> !cause.contains("\n"));
        assertThat(strangerCalls).as("connections to another user's socket").hasValue(0);
        assertThat(discovery.talkedTo())
            .containsExactlyInAnyOrder(
                user.socket("good").toString(),
                stale.toString(),
                hangsUp.toString(),
                elsewhere.socket("configured").toString());

        // The server that was found goes away between two scans: it is stopped, nothing else.
        user.run("good", "kill-server");
        discovery.scanNow();
        assertThat(discovery.found())
            .filteredOn(found -> found.session().equals("review"))
            .singleElement()
            .extracting(Found::ended)
            .isEqualTo(true);
      }
    } finally {
      elsewhere.close();
    }
  }

  @Test
  void aPaneWhoseProcessIsGoneWhenItIsReadIsPassedOverWithItsCause() throws Exception {
    startClaude("good", "review");
    Path emptyProc = Files.createDirectories(dir.resolve("proc"));
    DiscoverySettings settings = new DiscoverySettings(true, false, user.socketDir(), List.of());
    try (Discovery discovery =
        new Discovery(settings, catalogue(), null, new Processes(emptyProc), Clock.systemUTC())) {
      discovery.scanNow();
      assertThat(discovery.found()).isEmpty();
      assertThat(discovery.causes().values())
          .anyMatch(cause -> cause.endsWith("its process ended while it was inspected"));
    }
  }

  @Test
  void aPaneReadBeforeItsCliShowedIsReadAgainThoughItsServerStaysQuiet() throws Exception {
    startClaude("good", "review");
    awaitScreen("good", "review", "Welcome to Claude Code");
    // Its processes read through a link: first to an empty directory (the pane read while its CLI
    // was still starting shows none), then to the real /proc.
    Path proc = dir.resolve("proc-view");
    Files.createSymbolicLink(proc, Files.createDirectories(dir.resolve("no-proc")));
    MutableClock clock = MutableClock.start();
    DiscoverySettings settings = new DiscoverySettings(true, false, user.socketDir(), List.of());
    try (Discovery discovery =
        new Discovery(settings, catalogue(), null, new Processes(proc), clock)) {
      discovery.scanNow();
      clock.advanceMillis(Discovery.SCAN_MILLIS);
      discovery.scanNow();
      assertThat(discovery.found()).isEmpty();

      Files.delete(proc);
      Files.createSymbolicLink(proc, Path.of("/proc"));
      clock.advanceMillis(Discovery.SCAN_MILLIS);
      discovery.scanNow();
      assertThat(discovery.found())
          .as("found at the next look, though its server did nothing since")
          .extracting(Found::session)
          .containsExactly("review");
    }
  }

  private void awaitScreen(String server, String session, String shown) throws Exception {
    long deadline = System.nanoTime() + java.time.Duration.ofSeconds(20).toNanos();
    String screen = "";
    while (!screen.contains(shown) && System.nanoTime() < deadline) {
      Thread.sleep(50);
      screen = user.run(server, "capture-pane", "-p", "-t", "=" + session + ":");
    }
    assertThat(screen).as("the stand-in's screen").contains(shown);
  }

  @Test
  void aSessionAnotherCliqueEngineStartedIsLeftToIt() throws Exception {
    user.run(
        "engine",
        "new-session",
        "-d",
        "-s",
        "3f2b8c1e-5a47-4d0e-9b6f-2c81d4e7a915",
        "-e",
        "CLIQUE_SESSION=3f2b8c1e-5a47-4d0e-9b6f-2c81d4e7a915",
        "-c",
        project.toString(),
        claude.toString());
    startClaude("good", "review");
    try (Discovery discovery =
        discovery(new DiscoverySettings(true, false, user.socketDir(), List.of()), null)) {
      scanUntil(discovery, 1);
      Thread.sleep(500);
      discovery.scanNow();
      assertThat(discovery.found()).extracting(Found::session).containsExactly("review");
      assertThat(discovery.causes().values())
          .anyMatch(cause -> cause.endsWith("of another clique engine: left to it"));
    }
  }

  @Test
  void shellsAreListedOnlyWhenAskedFor() throws Exception {
    user.run("good", "new-session", "-d", "-s", "plain", "bash", "--norc", "--noprofile");
    try (Discovery without =
            discovery(new DiscoverySettings(true, false, user.socketDir(), List.of()), null);
        Discovery with =
            discovery(new DiscoverySettings(true, true, user.socketDir(), List.of()), null)) {
      scanUntil(with, 1);
      without.scanNow();
      assertThat(without.found()).isEmpty();
      assertThat(with.found()).extracting(Found::cli).containsExactly("shell");
    }
  }

  @Test
  void aFoundPaneIsLoggedOnceWhenFoundAndOnceWhenItEndsHoweverOftenItsCommandChanges()
      throws Exception {
    user.run("good", "new-session", "-d", "-s", "typed", "bash", "--norc", "--noprofile");
    java.io.ByteArrayOutputStream output = new java.io.ByteArrayOutputStream();
    java.io.PrintStream stderr = System.err;
    System.setErr(new java.io.PrintStream(output, true));
    try (Discovery discovery =
        discovery(new DiscoverySettings(true, true, user.socketDir(), List.of()), null)) {
      scanUntil(discovery, 1);
      for (int i = 0; i < 3; i++) {
        // The pane's foreground command changes, and back: the same shell all along.
        user.run("good", "send-keys", "-t", "=typed:", "sleep 1", "Enter");
        awaitCommand("good", "typed", "sleep");
        discovery.scanNow();
        awaitCommand("good", "typed", "bash");
        discovery.scanNow();
      }
      assertThat(discovery.found()).extracting(Found::cli).containsExactly("shell");
      user.run("good", "kill-session", "-t", "=typed");
      discovery.scanNow();
      discovery.scanNow();
    } finally {
      System.setErr(stderr);
    }
    List<String> said = output.toString().lines().toList();
    List<String> lines =
        said.stream().filter(line -> line.contains("discovery: shell in pane ")).toList();
    assertThat(lines).as("found, then ended: " + said).hasSize(2);
    assertThat(lines.get(0)).contains("of tmux session typed").contains("(pid ");
    assertThat(lines.get(1)).contains("of tmux session typed").endsWith(" ended");
  }

  private void awaitCommand(String server, String session, String command) throws Exception {
    long deadline = System.nanoTime() + java.time.Duration.ofSeconds(20).toNanos();
    String now = "";
    while (!now.equals(command) && System.nanoTime() < deadline) {
      now =
          user.run(
                  server,
                  "display-message",
                  "-p",
                  "-t",
                  "=" + session + ":",
                  "#{pane_current_command}")
              .strip();
      Thread.sleep(20);
    }
    assertThat(now).as("the pane's foreground command").isEqualTo(command);
  }

  /** Scans until {@code count} sessions are found (a CLI takes a moment to start), at most 5 s. */
  private static void scanUntil(Discovery discovery, int count) throws InterruptedException {
    long deadline = System.nanoTime() + 5_000_000_000L;
    do {
      discovery.scanNow();
      Thread.sleep(100);
    } while (discovery.found().size() < count && System.nanoTime() < deadline);
  }

  private Discovery discovery(DiscoverySettings settings, Path ownSocket) {
    return new Discovery(settings, catalogue(), ownSocket, Clock.systemUTC());
  }

  private static CliCatalogue catalogue() {
    return CliCatalogue.load(null, Map.of("PATH", "/usr/bin:/bin", "HOME", "/home/dev"));
  }

  private void startClaude(String server, String session) throws Exception {
    user.run(
        server, "new-session", "-d", "-s", session, "-c", project.toString(), claude.toString());
  }

  private ServerSocketChannel listen(Path socket) throws IOException {
    ServerSocketChannel channel = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    channel.bind(UnixDomainSocketAddress.of(socket));
    listeners.add(channel);
    return channel;
  }

  private static void acceptInBackground(
      ServerSocketChannel channel, AtomicInteger calls, boolean hangUp) {
    Thread thread =
        new Thread(
            () -> {
              try {
                while (true) {
                  SocketChannel client = channel.accept();
                  calls.incrementAndGet();
                  if (hangUp) {
                    client.close();
                  }
                }
              } catch (IOException e) {
                // closed at the end of the test
              }
            });
    thread.setDaemon(true);
    thread.start();
  }
}
