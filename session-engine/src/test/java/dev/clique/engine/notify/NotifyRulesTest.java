package dev.clique.engine.notify;

import static dev.clique.engine.notify.Views.exited;
import static dev.clique.engine.notify.Views.killed;
import static dev.clique.engine.notify.Views.usageLimit;
import static dev.clique.engine.notify.Views.view;
import static dev.clique.engine.notify.Views.waiting;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clique.engine.session.SessionView;
import dev.clique.engine.testing.MutableClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class NotifyRulesTest {
  private MutableClock clock;
  private NotifyRules rules;

  @BeforeEach
  void setUp() {
    clock = MutableClock.start();
    rules = new NotifyRules(NotifyRules.Settings.DEFAULT, clock);
    assertThat(rules.observe(List.of(view("a", "api", "idle")))).isEmpty(); // the first look
  }

  @Test
  void waitingIsToldOnceTheDwellPassedOncePerEpisodeWithTheQuestion() {
    SessionView asking = waiting("a", "api", "question", "Continue? (y/n)");
    assertThat(rules.observe(List.of(asking))).isEmpty();
    assertThat(rules.nextDueMillis()).isEqualTo(clock.millis() + 3_000);
    clock.advanceMillis(2_999);
    assertThat(rules.due()).isEmpty();
    clock.advanceMillis(1);
    List<Notice> told = rules.due();
    assertThat(told).hasSize(1);
    assertThat(told.get(0).event()).isEqualTo(Event.WAITING);
    assertThat(told.get(0).first().attention().detail()).isEqualTo("Continue? (y/n)");
    assertThat(Format.Messages.body(told.get(0))).contains("question: Continue? (y/n)");

    // Still waiting, a new look, another question: the same episode, told already.
    clock.advanceMillis(10_000);
    assertThat(rules.observe(List.of(waiting("a", "api", "question", "Really? (y/n)")))).isEmpty();
    clock.advanceMillis(10_000);
    assertThat(rules.due()).isEmpty();
    assertThat(rules.nextDueMillis()).isEqualTo(Long.MAX_VALUE);

    // Answered, then asking again: a new episode, told again after its dwell.
    assertThat(rules.observe(List.of(view("a", "api", "working")))).isEmpty();
    assertThat(rules.observe(List.of(asking))).isEmpty();
    clock.advanceMillis(3_000);
    assertThat(rules.due()).extracting(Notice::event).containsExactly(Event.WAITING);
  }

  @Test
  void aReminderAsksAgainEveryPeriodWhileTheSameWaitingLastsAndNeverWhenOff() {
    NotifyRules.Settings defaults = NotifyRules.Settings.DEFAULT;
    assertThat(defaults.remindEvery()).as("off by default").isEqualTo(Duration.ZERO);
    rules.settings(
        new NotifyRules.Settings(
            defaults.dwell(),
            defaults.finishedAfter(),
            defaults.burst(),
            Duration.ofSeconds(60),
            defaults.skipWhenWatched()));
    SessionView asking = waiting("a", "api", "permission", "rm -rf build");
    rules.observe(List.of(asking));
    clock.advanceMillis(3_000);
    assertThat(rules.due()).extracting(Notice::event).containsExactly(Event.WAITING);
    assertThat(rules.nextDueMillis()).isEqualTo(clock.millis() + 60_000);
    clock.advanceMillis(59_999);
    assertThat(rules.due()).isEmpty();
    clock.advanceMillis(1);
    List<Notice> reminded = rules.due();
    assertThat(reminded).extracting(Notice::event).containsExactly(Event.WAITING);
    assertThat(reminded.get(0).first().attention().detail()).isEqualTo("rm -rf build");
    // A look in between changes nothing: the same episode, the next reminder a period later.
    clock.advanceMillis(30_000);
    assertThat(rules.observe(List.of(asking))).isEmpty();
    clock.advanceMillis(30_000);
    assertThat(rules.due()).hasSize(1);

    // Answered: no reminder of an episode that ended.
    rules.observe(List.of(view("a", "api", "working")));
    clock.advanceMillis(600_000);
    assertThat(rules.due()).isEmpty();
    assertThat(rules.nextDueMillis()).isEqualTo(Long.MAX_VALUE);

    // Off: told once, as before.
    rules.settings(defaults);
    rules.observe(List.of(asking));
    clock.advanceMillis(3_000);
    assertThat(rules.due()).hasSize(1);
    clock.advanceMillis(600_000);
    assertThat(rules.due()).isEmpty();
    assertThat(rules.nextDueMillis()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void aWaitingShorterThanTheDwellIsNotTold() {
    rules.observe(List.of(waiting("a", "api", "question", "Continue? (y/n)")));
    clock.advanceMillis(2_500);
    assertThat(rules.observe(List.of(view("a", "api", "working")))).isEmpty();
    clock.advanceMillis(10_000);
    assertThat(rules.due()).isEmpty();
    assertThat(rules.nextDueMillis()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void whatTheFirstLookShowsIsNotNews() {
    NotifyRules fresh = new NotifyRules(NotifyRules.Settings.DEFAULT, clock);
    assertThat(fresh.observe(List.of(waiting("a", "api", "question", "Continue? (y/n)"))))
        .isEmpty();
    clock.advanceMillis(60_000);
    assertThat(fresh.due()).isEmpty();
    // A session that appears later is news.
    fresh.observe(
        List.of(
            waiting("a", "api", "question", "Continue? (y/n)"),
            waiting("b", "web", "trust", "/home/someone/project")));
    clock.advanceMillis(3_000);
    assertThat(fresh.due())
        .singleElement()
        .satisfies(n -> assertThat(n.first().id()).isEqualTo("b"));
  }

  @Test
  void finishedOnlyAfterEnoughWorkAndOnlyIfStillIdleAtTheEndOfTheBurstWindow() {
    rules.observe(List.of(view("a", "api", "working")));
    clock.advanceMillis(29_000);
    rules.observe(List.of(view("a", "api", "idle")));
    clock.advanceMillis(5_000);
    assertThat(rules.due()).as("29 s of work is under the threshold").isEmpty();

    rules.observe(List.of(view("a", "api", "working")));
    clock.advanceMillis(20_000);
    rules.observe(List.of(waiting("a", "api", "permission", "Bash: make")));
    clock.advanceMillis(2_000);
    rules.observe(List.of(view("a", "api", "working")));
    clock.advanceMillis(10_000);
    assertThat(rules.observe(List.of(view("a", "api", "idle")))).isEmpty();
    clock.advanceMillis(999);
    assertThat(rules.due()).isEmpty();
    clock.advanceMillis(1);
    assertThat(rules.due()).extracting(Notice::event).containsExactly(Event.FINISHED);

    // Idle a moment only, then at work again within the window: not finished.
    rules.observe(List.of(view("a", "api", "working")));
    clock.advanceMillis(40_000);
    rules.observe(List.of(view("a", "api", "idle")));
    clock.advanceMillis(500);
    rules.observe(List.of(view("a", "api", "working")));
    clock.advanceMillis(5_000);
    assertThat(rules.due()).isEmpty();
  }

  @Test
  void eightSessionsFinishingWithinASecondAreOneNoticeNamingThemAll() {
    List<SessionView> working = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      working.add(view("s" + i, "task-" + i, "working"));
    }
    rules.observe(working);
    clock.advanceMillis(60_000);
    List<SessionView> now = new ArrayList<>(working);
    for (int i = 0; i < 8; i++) {
      now.set(i, view("s" + i, "task-" + i, "idle"));
      assertThat(rules.observe(now)).isEmpty();
      clock.advanceMillis(100);
    }
    clock.advanceMillis(300);
    List<Notice> told = rules.due();
    assertThat(told).hasSize(1);
    assertThat(told.get(0).sessions()).hasSize(8);
    assertThat(Format.Messages.title(told.get(0)))
        .isEqualTo(
            "8 sessions finished: task-0, task-1, task-2, task-3, task-4, task-5, task-6, task-7");
  }

  @Test
  void stoppedIsToldWhenTheCliExitedByItselfNotWhenAPersonStoppedIt() {
    rules.observe(List.of(view("a", "api", "idle"), view("b", "web", "idle")));
    assertThat(rules.observe(List.of(exited("a", 1), killed("b")))).isEmpty();
    clock.advanceMillis(1_000);
    List<Notice> told = rules.due();
    assertThat(told)
        .singleElement()
        .satisfies(
            n -> {
              assertThat(n.event()).isEqualTo(Event.STOPPED);
              assertThat(n.sessions()).extracting(SessionView::id).containsExactly("a");
              assertThat(Format.Messages.body(n)).contains("exited with status 1");
            });
    // Stopped it stays: no more news.
    clock.advanceMillis(5_000);
    assertThat(rules.observe(List.of(exited("a", 1), killed("b")))).isEmpty();
    clock.advanceMillis(5_000);
    assertThat(rules.due()).isEmpty();
  }

  @Test
  void aUsageLimitIsItsOwnEventWithWhenItLifts() {
    rules.observe(List.of(usageLimit("a", "2026-12-07T20:00:00Z")));
    clock.advance(Duration.ofSeconds(3));
    List<Notice> told = rules.due();
    assertThat(told)
        .singleElement()
        .satisfies(
            n -> {
              assertThat(n.event()).isEqualTo(Event.USAGE_LIMIT);
              assertThat(Format.Messages.body(n)).contains("resets at 2026-12-07T20:00:00Z");
              assertThat(
                      Format.Messages.json(n, "http://127.0.0.1:1")
                          .path("attention")
                          .path("resets_at")
                          .asText())
                  .isEqualTo("2026-12-07T20:00:00Z");
            });
  }

  @Test
  void anErrorIsToldWithItsTypeAfterTheDwell() {
    SessionView failing =
        Views.view(
            "a",
            "api",
            "claude",
            "error",
            new SessionView.AttentionView("error", "authentication_failed", 1.0, null),
            null,
            new SessionView.SourceView("hook", "StopFailure"));
    rules.observe(List.of(failing));
    clock.advanceMillis(3_000);
    assertThat(rules.due())
        .singleElement()
        .satisfies(
            n -> {
              assertThat(n.event()).isEqualTo(Event.ERROR);
              assertThat(Format.Messages.body(n)).startsWith("error: authentication_failed");
            });
  }

  @Test
  void aSessionThatGoesAwayIsForgotten() {
    rules.observe(List.of(waiting("a", "api", "question", "Continue? (y/n)")));
    rules.observe(List.of());
    clock.advanceMillis(3_000);
    assertThat(rules.due()).isEmpty();
  }
}
