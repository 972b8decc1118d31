package dev.clique.engine.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.catalogue.CliCatalogue;
import dev.clique.engine.home.HomeId;
import dev.clique.engine.json.EngineJson;
import dev.clique.engine.testing.FakeTmux;
import dev.clique.engine.testing.MutableClock;
import dev.clique.engine.tmux.Foreground;
import dev.clique.engine.tmux.HomeMark;
import dev.clique.engine.tmux.PaneProcess;
import dev.clique.engine.token.Scope;
import dev.clique.engine.token.Token;
import dev.clique.engine.token.TokenStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The session service on a fake tmux and a clock the test moves; the watcher ticks by hand. */
class SessionServiceTest {
  @TempDir Path dir;
  private final MutableClock clock = MutableClock.start();
  private final FakeTmux tmux = new FakeTmux(clock);
  private TokenStore tokens;
  private SessionService service;

  @BeforeEach
  void service() throws Exception {
    // An agent CLI that is installed everywhere: bash under another name, with its own patterns.
    Files.writeString(
        dir.resolve("clis.toml"),
        "[cli.agent]\nlabel = \"Agent\"\ncommand = \"bash\"\nwaiting = [\"Allow this\\\\?\"]\n");
    tokens = TokenStore.inMemory(clock);
    service =
        SessionService.builder()
            .store(SessionStore.open(dir.resolve("state.json")))
            .tmux(tmux)
            .catalogue(
                CliCatalogue.load(
                    dir.resolve("clis.toml"),
                    Map.of("PATH", System.getenv("PATH"), "HOME", dir.toString())))
            .tokens(tokens)
            .clock(clock)
            .engineUrl(() -> "http://127.0.0.1:3200")
            .build();
  }

  @AfterEach
  void close() {
    service.close();
  }

  private String shell() throws Exception {
    return service.create(new NewSession("shell", dir.toString(), "dev", null)).id();
  }

  private void tick(long afterMillis) {
    clock.advanceMillis(afterMillis);
    service.watcher().tick();
  }

  /** Lets {@code millis} pass with the watcher ticking as it does for real. */
  private void run(long millis) {
    for (long t = 0; t < millis; t += SessionWatcher.TICK_MILLIS) {
      tick(SessionWatcher.TICK_MILLIS);
    }
  }

  private String state(String id) {
    return service.session(id).orElseThrow().state();
  }

  @Test
  void aSessionIsMarkedAsThisHomesAndOnlyThisHomesStrangersAreAdopted() throws Exception {
    String made = shell();
    HomeMark home =
        new HomeMark(Files.readString(dir.resolve(HomeId.FILE)).strip(), dir.toString());
    assertThat(tmux.pane(made).home).isEqualTo(home);

    service.adoptLateOrphans();
    HomeMark other = new HomeMark(UUID.randomUUID().toString(), "/elsewhere/.clique");
    tmux.newSession("ours-left", dir, List.of("bash"), Map.of(), home);
    tmux.newSession("theirs", dir, List.of("bash"), Map.of(), other);
    tmux.newSession("unmarked", dir, List.of("bash"), Map.of(), HomeMark.NONE);
    run(SessionWatcher.STRANGER_GRACE_MILLIS + 1_000);

    assertThat(service.sessions().stream().map(SessionView::id))
        .containsExactlyInAnyOrder(made, "ours-left");
    assertThat(tmux.pane("theirs").home).isEqualTo(other);
    assertThat(tmux.pane("unmarked").home).isEqualTo(HomeMark.NONE);
    assertThat(service.adoptOrphans()).isZero();
  }

  @Test
  void aSessionStartsItsCliInTmuxWithItsIdAndAHookTokenBoundToIt() throws Exception {
    String id = shell();
    FakeTmux.FakePane pane = tmux.pane(id);
    assertThat(pane.argv.get(0)).endsWith("/bash");
    assertThat(pane.cwd).isEqualTo(dir);
    assertThat(pane.env)
        .containsEntry("CLIQUE_SESSION", id)
        .containsEntry("CLIQUE_URL", "http://127.0.0.1:3200");
    Token hook = tokens.authenticate(pane.env.get("CLIQUE_ATTENTION_TOKEN")).orElseThrow();
    assertThat(hook.allows(Scope.ATTENTION)).isTrue();
    assertThat(hook.allows(Scope.READ)).isFalse();
    assertThat(hook.session()).isEqualTo(id);

    SessionView view = service.session(id).orElseThrow();
    assertThat(view.name()).isEqualTo("dev");
    assertThat(view.alive()).isTrue();
    assertThat(view.cliLabel()).isEqualTo("Shell");
    assertThat(view.project()).isEqualTo(dir.getFileName().toString());
  }

  @Test
  void whatCannotBeStartedIsABadRequestInWords() throws Exception {
    assertBad(new NewSession(null, dir.toString(), null, null), "cli is required");
    assertBad(new NewSession("shell", null, null, null), "cwd is required");
    assertBad(new NewSession("nope", dir.toString(), null, null), "unknown CLI: nope (known: ");
    assertBad(new NewSession("nope", dir.toString(), null, null), ", claude, codex, ");
    assertBad(new NewSession("shell", "relative/dir", null, null), "absolute");
    assertBad(
        new NewSession("shell", dir.resolve("missing").toString(), null, null),
        "the folder " + dir.resolve("missing") + " does not exist");
    Path file = Files.writeString(dir.resolve("notes.txt"), "");
    assertBad(new NewSession("shell", file.toString(), null, null), file + " is a file");
    assertBad(new NewSession("shell", dir.toString(), null, "yolo"), "has no mode yolo");
    assertThat(tmux.calls()).isEmpty();
  }

  private void assertBad(NewSession request, String words) {
    assertThatThrownBy(() -> service.create(request))
        .isInstanceOfSatisfying(
            SessionException.class,
            e -> assertThat(e.kind()).isEqualTo(SessionException.Kind.BAD_REQUEST))
        .hasMessageContaining(words);
  }

  @Test
  void textIsTypedLiterallyThenEnterUnlessEnterIsFalseOrOneNamedKey() throws Exception {
    String id = shell();
    service.send(id, "echo C-c Enter; ls", true, null);
    service.send(id, "partial", false, null);
    service.send(id, "ignored", true, "C-c");
    assertThat(tmux.pane(id).typed)
        .containsExactly("text:echo C-c Enter; ls", "key:Enter", "text:partial", "key:C-c");
  }

  /**
   * Keys sent while a CLI starts itself anew would go to the old process and be lost with it: the
   * send waits until the new process drew its screen.
   */
  @Test
  void aSendWaitsWhileTheCliStartsItselfAnew() throws Exception {
    Path catalogue = dir.resolve("relauncher.toml");
    Files.writeString(
        catalogue,
        "[cli.relauncher]\ncommand = \"bash\"\ntrust = [\"Trust this folder\\\\?\"]\n"
            + "relaunch = [\"restarting to apply\"]\n");
    service.close();
    service =
        SessionService.builder()
            .store(SessionStore.open(dir.resolve("state.json")))
            .tmux(tmux)
            .catalogue(
                CliCatalogue.load(
                    catalogue, Map.of("PATH", System.getenv("PATH"), "HOME", dir.toString())))
            .tokens(tokens)
            .clock(clock)
            .engineUrl(() -> "http://127.0.0.1:3200")
            .build();
    String id = service.create(new NewSession("relauncher", dir.toString(), "r", null)).id();
    FakeTmux.FakePane pane = tmux.pane(id);
    pane.descendants = Map.of(100L, new PaneProcess("relauncher", 60_000));
    tmux.print(id, "Loading...\n");
    run(3_000);
    // The question comes up and is answered before the watcher looked again: the answer still
    // counts.
    tmux.print(id, "Trust this folder?\n> 1. Yes\n");

    service.send(id, null, false, "Enter");
    tick(SessionWatcher.TICK_MILLIS);
    tmux.print(id, "Trust this folder?\n> 1. Yes\nrestarting to apply the trust changes...\n");
    run(200);
    assertThat(state(id)).isEqualTo("working");

    CompletableFuture<Void> sent =
        CompletableFuture.runAsync(
            () -> {
              try {
                service.send(id, "hello", false, null);
              } catch (SessionException e) {
                throw new IllegalStateException(e);
              }
            });
    Thread.sleep(300);
    assertThat(sent).as("the send while the old process is still there").isNotDone();
    assertThat(pane.typed).containsExactly("key:Enter");

    pane.descendants = Map.of(200L, new PaneProcess("relauncher", 50)); // started anew
    run(200);
    assertThat(sent).isNotDone(); // the new one has not drawn yet
    tmux.print(id, "restarting to apply the trust changes...\nWelcome\n> \n");
    run(200);
    sent.get(5, TimeUnit.SECONDS);
    assertThat(pane.typed).containsExactly("key:Enter", "text:hello");
  }

  @Test
  void sendingToAStoppedSessionIsRefusedAndToAnUnknownOneIsNotFound() throws Exception {
    String id = shell();
    service.kill(id);
    assertThatThrownBy(() -> service.send(id, "ls", true, null))
        .hasMessage("session is not running");
    assertThatThrownBy(() -> service.send("nope", "ls", true, null))
        .isInstanceOfSatisfying(
            SessionException.class,
            e -> assertThat(e.kind()).isEqualTo(SessionException.Kind.NOT_FOUND));
  }

  @Test
  void killKeepsTheRecordAsStoppedAndStartRelaunchesTheSameId() throws Exception {
    String id = shell();
    long firstPid = tmux.pane(id).pid;
    assertThatThrownBy(() -> service.restart(id)).hasMessage("session is already running");

    service.kill(id);
    SessionView stopped = service.session(id).orElseThrow();
    assertThat(stopped.alive()).isFalse();
    assertThat(stopped.state()).isEqualTo("stopped");
    assertThat(stopped.command()).isNull();

    service.restart(id);
    assertThat(tmux.pane(id).pid).isNotEqualTo(firstPid);
    assertThat(service.session(id).orElseThrow().alive()).isTrue();
    assertThat(service.sessions()).extracting(SessionView::id).containsExactly(id);
  }

  @Test
  void deleteDropsTheRecordRevokesItsTokenAndItsWaitsAnswerGone() throws Exception {
    String id = shell();
    String hook = tmux.pane(id).env.get("CLIQUE_ATTENTION_TOKEN");
    CompletableFuture<WaitOutcome> waiting = service.await(id, Set.of("error"), 60_000);
    assertThat(waiting).isNotDone();

    service.delete(id);
    assertThat(waiting.getNow(null)).isEqualTo(new WaitOutcome(id, "gone", false, 0));
    assertThat(service.record(id)).isEmpty();
    assertThat(service.sessions()).isEmpty();
    assertThat(tokens.authenticate(hook)).isEmpty();
    assertThat(tmux.calls()).contains("kill-session " + id);
    assertThatThrownBy(() -> service.await(id, Set.of("idle"), 1_000))
        .isInstanceOf(SessionException.class);
  }

  @Test
  void theStateIsServedFromMemoryWithoutAskingTmux() throws Exception {
    shell();
    shell();
    int lists = tmux.listCalls();
    int captures = tmux.captureCalls();
    for (int i = 0; i < 1_000; i++) {
      assertThat(service.sessions()).hasSize(2);
    }
    assertThat(tmux.listCalls()).isEqualTo(lists);
    assertThat(tmux.captureCalls()).isEqualTo(captures);
  }

  @Test
  void theStateJsonIsWrittenOncePerChangeAndIsTheJsonOfTheViews() throws Exception {
    String id = service.create(new NewSession("agent", dir.toString(), null, null)).id();
    run(3_000);
    List<SessionView> first = service.sessions();
    assertThat(service.sessions()).as("nothing changed").isSameAs(first);
    ObjectMapper json = EngineJson.mapper();
    assertThat(json.writeValueAsString(Map.of("sessions", first)))
        .isEqualTo(json.writeValueAsString(Map.of("sessions", new ArrayList<>(first))));

    tmux.print(id, "hello");
    run(300);
    List<SessionView> next = service.sessions();
    assertThat(next).isNotSameAs(first);
    assertThat(next.get(0).state()).isEqualTo("working");
    assertThat(json.readTree(json.writeValueAsString(next)).get(0).get("state").asText())
        .isEqualTo("working");
  }

  @Test
  void aWaitEndsWhenTheStateChangesAndNotBefore() throws Exception {
    String id = service.create(new NewSession("agent", dir.toString(), null, null)).id();
    run(3_000);
    assertThat(state(id)).isEqualTo("idle");
    tmux.print(id, "• Running tests");
    run(300);
    assertThat(state(id)).isEqualTo("working");

    CompletableFuture<WaitOutcome> idle = service.await(id, Set.of("idle", "error"), 60_000);
    run(1_000);
    assertThat(idle).isNotDone();
    tmux.pane(id).screen = "tests passed\n> ";
    run(1_500);
    WaitOutcome outcome = idle.getNow(null);
    assertThat(outcome).isNotNull();
    assertThat(outcome.state()).isEqualTo("idle");
    assertThat(outcome.matched()).isTrue();
    assertThat(outcome.waited()).isBetween(1.7, 2.5);
  }

  @Test
  void aShellIsWorkingWhileItsCommandHoldsTheTerminal() throws Exception {
    String id = shell();
    tick(100);
    assertThat(state(id)).isEqualTo("idle");
    service.send(id, "sleep 3", true, null);
    assertThat(state(id)).as("right after the keys").isEqualTo("working");
    tmux.pane(id).foreground = Foreground.COMMAND;
    for (int i = 0; i < 60; i++) {
      tick(50);
      assertThat(state(id)).isEqualTo("working");
    }
    tmux.pane(id).foreground = Foreground.SHELL;
    tmux.print(id, "bash-5.2$ sleep 3\nbash-5.2$ ");
    tick(50);
    tick(50);
    assertThat(state(id)).isEqualTo("idle");
  }

  @Test
  void waitWithTimeoutZeroAnswersAtOnce() throws Exception {
    String id = shell();
    tick(100);
    assertThat(service.await(id, Set.of("working"), 0).getNow(null))
        .isEqualTo(new WaitOutcome(id, "idle", false, 0));
    assertThat(service.await(id, Set.of("idle"), 0).getNow(null))
        .isEqualTo(new WaitOutcome(id, "idle", true, 0));
  }

  @Test
  void anAttentionSignalMakesItWaitingUntilThePanePrintsAgain() throws Exception {
    String id = service.create(new NewSession("agent", dir.toString(), null, null)).id();
    tmux.pane(id).screen = "● Edited 2 files\n> ";
    run(3_000);
    assertThat(state(id)).isEqualTo("idle");

    service.attention(id, "waiting");
    SessionView view = service.session(id).orElseThrow();
    assertThat(view.state()).isEqualTo("waiting");
    assertThat(view.signal()).isEqualTo("waiting");
    assertThat(view.saying()).isEqualTo(">");

    service.attention(id, "error");
    assertThat(state(id)).isEqualTo("error");
    service.attention(id, "clear");
    assertThat(state(id)).isEqualTo("idle");

    service.attention(id, "waiting");
    run(2_000);
    tmux.print(id, "● Working on the next file\n> ");
    run(2_500);
    assertThat(service.session(id).orElseThrow().signal()).isEmpty();
    assertThat(state(id)).isEqualTo("idle");

    assertThatThrownBy(() -> service.attention(id, "sleepy"))
        .hasMessage("state must be waiting, error or clear");
    assertThatThrownBy(() -> service.attention("nope", "waiting"))
        .isInstanceOfSatisfying(
            SessionException.class,
            e -> assertThat(e.kind()).isEqualTo(SessionException.Kind.NOT_FOUND));
  }

  @Test
  void memoryAndGitStatusAreGatheredWhenAnAnswerNeedsThemAndKeptAMoment() throws Exception {
    String id = shell();
    tmux.pane(id).rss = 7 * 1024 * 1024;
    assertThat(service.session(id).orElseThrow().rss()).isEqualTo(7 * 1024 * 1024);
    tmux.pane(id).rss = 9 * 1024 * 1024;
    assertThat(service.session(id).orElseThrow().rss()).as("kept").isEqualTo(7 * 1024 * 1024);
    service.gatherFactsNow();
    SessionView view = service.session(id).orElseThrow();
    assertThat(view.rss()).isEqualTo(9 * 1024 * 1024);
    assertThat(view.branch()).as("not a git work tree").isEmpty();
    assertThat(view.dirty()).isZero();
  }

  @Test
  void peekShowsTheFilteredLastLinesAndNothingForAStoppedSession() throws Exception {
    String id = shell();
    tmux.print(id, "one\n\n\u2500\u2500\u2500\ntwo   \n\u2502 three \u2502\n");
    PaneLines lines = service.peek(id, 2);
    assertThat(lines.lines()).containsExactly("two", "\u2502 three \u2502");
    assertThat(lines.alive()).isTrue();

    service.kill(id);
    assertThat(service.peek(id, 6)).isEqualTo(PaneLines.stopped());
    assertThatThrownBy(() -> service.peek("nope", 6)).hasMessage("no such session");
  }

  @Test
  void aSessionKilledBehindTheEnginesBackIsStoppedAtTheNextLook() throws Exception {
    String id = shell();
    CompletableFuture<WaitOutcome> stopped = service.await(id, Set.of("stopped"), 60_000);
    tmux.killFromOutside(id);
    tick(Duration.ofSeconds(1).toMillis());
    assertThat(stopped.getNow(null).state()).isEqualTo("stopped");
    assertThat(service.record(id)).isPresent();
  }

  @Test
  void aListingThatFailedAsTheSessionWasKilledIsMadeAgainThoughTmuxDoesNothingMore()
      throws Exception {
    tmux.stampActivity();
    String id = shell();
    run(1_000);
    CompletableFuture<WaitOutcome> stopped = service.await(id, Set.of("stopped"), 60_000);
    tmux.failListings(1); // its server ending as the engine asked it
    tmux.killFromOutside(id);
    run(2_000);
    assertThat(stopped.getNow(null)).as("the wait for stopped").isNotNull();
    assertThat(stopped.getNow(null).state()).isEqualTo("stopped");
  }
}
