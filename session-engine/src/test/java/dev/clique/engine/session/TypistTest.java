package dev.clique.engine.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clique.engine.testing.FakeTmux;
import dev.clique.engine.tmux.HomeMark;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TypistTest {
  private final FakeTmux tmux = new FakeTmux(Clock.systemUTC());
  private FakeTmux.FakePane pane;

  @BeforeEach
  void session() throws Exception {
    tmux.newSession("s", Path.of("/tmp"), List.of("codex"), Map.of(), HomeMark.NONE);
    pane = tmux.pane("s");
    pane.screen = "› ls\n\n› ";
    pane.echoes = false;
  }

  @Test
  void theEnterComesOnlyOnceTheScreenShowsTheTextAndAMomentAfter() throws Exception {
    // A CLI starved of CPU: it reads the text, and draws it, 400 ms after it was sent.
    CompletableFuture<List<String>> typedWhenDrawn =
        CompletableFuture.supplyAsync(
            () -> {
              sleep(400);
              synchronized (tmux) {
                pane.screen = "› ls\n\n› Summarise the README";
                return List.copyOf(pane.typed);
              }
            });
    long start = System.nanoTime();
    new Typist(tmux).type("s", "Summarise the README", true);
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    assertThat(typedWhenDrawn.get())
        .as("keys sent when the text was drawn")
        .containsExactly("text:Summarise the README");
    assertThat(pane.typed).containsExactly("text:Summarise the README", "key:Enter");
    assertThat(tookMillis).isGreaterThanOrEqualTo(400 + Typist.ENTER_GAP_MILLIS);
  }

  @Test
  void textAlreadyOnTheScreenCountsOnlyWhenItShowsOnceMore() throws Exception {
    CompletableFuture<List<String>> typedWhenDrawn =
        CompletableFuture.supplyAsync(
            () -> {
              sleep(300);
              synchronized (tmux) {
                pane.screen = "› ls\n\n› ls";
                return List.copyOf(pane.typed);
              }
            });
    new Typist(tmux).type("s", "ls", true);

    assertThat(typedWhenDrawn.get()).containsExactly("text:ls");
    assertThat(pane.typed).containsExactly("text:ls", "key:Enter");
  }

  @Test
  void aScreenThatChangedAndHeldStillHasTakenTheText() throws Exception {
    // Codex shows a long paste as a placeholder: the text itself never appears.
    CompletableFuture.runAsync(
        () -> {
          sleep(100);
          pane.screen = "› ls\n\n› [Pasted Content 3000 chars]";
        });
    long start = System.nanoTime();
    new Typist(tmux, 5_000).type("s", "x".repeat(3000), true);
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    assertThat(pane.typed).containsExactly("text:" + "x".repeat(3000), "key:Enter");
    assertThat(tookMillis).as("well before the patience runs out").isLessThan(4_000);
  }

  @Test
  void aScreenThatNeverShowsTheTextGetsItsEnterWhenThePatienceRunsOut() throws Exception {
    long start = System.nanoTime();
    new Typist(tmux, 300).type("s", "secret answer", true);
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    assertThat(pane.typed).containsExactly("text:secret answer", "key:Enter");
    assertThat(tookMillis).isGreaterThanOrEqualTo(300 + Typist.ENTER_GAP_MILLIS);
  }

  @Test
  void withoutEnterOrWithoutTextNothingIsWaitedFor() throws Exception {
    long start = System.nanoTime();
    Typist typist = new Typist(tmux, 5_000);
    typist.type("s", "partial", false);
    typist.type("s", "", true);
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    assertThat(pane.typed).containsExactly("text:partial", "text:", "key:Enter");
    assertThat(tookMillis).isLessThan(Typist.ENTER_GAP_MILLIS);
  }

  @Test
  void theTailIsTheLastCharactersOfTheLastLine() {
    assertThat(Typist.tail("first line\n  the end  \n")).isEqualTo("the end");
    assertThat(Typist.tail("a".repeat(40) + "0123456789abcdef")).isEqualTo("0123456789abcdef");
    assertThat(Typist.tail("x" + "\uD83D\uDE00".repeat(20))).isEqualTo("\uD83D\uDE00".repeat(16));
    assertThat(Typist.tail("   ")).isEmpty();
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
