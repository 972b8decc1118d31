package dev.clique.engine.notify;

import dev.clique.engine.session.SessionView;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The targets of {@code notify.toml} as a person reads them ({@code clique notify}, {@code clique
 * doctor}), and a test message sent to each ({@code clique notify test}). Nothing secret: a URL's
 * path and query are masked, a header never shown.
 */
public final class NotifyTargets {
  private NotifyTargets() {}

  /**
   * One target: how logs name it, the events it wants, its {@code cli} and {@code name} filters
   * (null: any), and how its last delivery ended (null: none yet, or not known here).
   */
  public record Status(
      String target, List<String> events, String cli, String name, Delivery last) {}

  /** What the file says: its targets, and each mistake with its file and line. */
  public record Listing(List<Status> targets, List<String> problems) {}

  /** Reads {@code file}: no file is no target and no mistake. */
  public static Listing read(Path file) {
    List<String> problems = new ArrayList<>();
    NotifyConfig config = NotifyConfig.read(file, problems::add);
    List<Status> targets = new ArrayList<>();
    for (Target target : config.targets()) {
      targets.add(status(target, null));
    }
    return new Listing(List.copyOf(targets), List.copyOf(problems));
  }

  static Status status(Target target, Delivery last) {
    Selection selection = target.selection();
    List<String> events = new ArrayList<>();
    for (Event event : Event.values()) {
      if (selection.events().contains(event)) {
        events.add(event.wireName());
      }
    }
    return new Status(
        target.label(),
        List.copyOf(events),
        Selection.unglob(selection.cli()),
        Selection.unglob(selection.name()),
        last);
  }

  /**
   * Sends one test message to each target of {@code file} now, once each (no retry: a person waits
   * for the answer), and says how each ended.
   *
   * @param engine the engine's URL the message names, or null
   */
  public static List<Status> test(Path file, String engine) throws InterruptedException {
    NotifyConfig config = NotifyConfig.read(file, problem -> {});
    List<Status> answers = new ArrayList<>();
    HttpClient http = null;
    Notice notice = testNotice();
    for (Target target : config.targets()) {
      Sender sender;
      if (target instanceof Target.Webhook webhook) {
        if (http == null) {
          http =
              HttpClient.newBuilder()
                  .connectTimeout(Notifier.CONNECT_LIMIT)
                  .followRedirects(HttpClient.Redirect.NEVER)
                  .build();
        }
        sender = new WebhookSender(webhook, http, Notifier.ANSWER_LIMIT, engine);
      } else {
        sender = new CommandSender((Target.Command) target, engine);
      }
      Outcome outcome;
      try {
        outcome = sender.send(notice);
      } catch (RuntimeException e) {
        outcome = Outcome.failed("could not be sent (" + e.getClass().getName() + ")");
      }
      answers.add(
          status(
              target,
              new Delivery(
                  notice.at(),
                  notice.event().wireName(),
                  outcome.kind() == Outcome.Kind.DELIVERED,
                  outcome.said())));
    }
    return List.copyOf(answers);
  }

  /** A waiting notice about no real session, saying that it is a test. */
  private static Notice testNotice() {
    SessionView view =
        new SessionView(
            "test",
            "clique notify test",
            "shell",
            "Shell",
            null,
            null,
            null,
            null,
            null,
            0,
            true,
            false,
            null,
            0,
            0,
            0,
            false,
            "none",
            "",
            "waiting",
            0,
            null,
            0,
            new SessionView.AttentionView(
                "question", "A test message from clique notify test: nothing to answer", 0, null),
            null,
            null,
            null,
            null,
            List.of(),
            null,
            null);
    return new Notice(Event.WAITING, List.of(view), Instant.now());
  }
}
