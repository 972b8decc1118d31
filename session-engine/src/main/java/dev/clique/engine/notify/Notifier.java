package dev.clique.engine.notify;

import dev.clique.engine.home.FileStamp;
import dev.clique.engine.session.ChangeFeed;
import dev.clique.engine.session.SessionView;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the targets of {@code notify.toml} what the sessions need, on a thread of its own: it waits
 * for the {@link ChangeFeed} to move (the watcher only completes a future), looks at the sessions
 * then, and hands the notices the rules make to each target's {@link Lane}. The file is read at the
 * start and again once it changed; with no target, the sessions are not looked at.
 */
public final class Notifier implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Notifier.class);

  /** The longest it sleeps with nothing due: how soon a changed {@code notify.toml} is read. */
  static final long IDLE_MILLIS = 2_000;

  static final Duration CONNECT_LIMIT = Duration.ofSeconds(5);
  static final Duration ANSWER_LIMIT = Duration.ofSeconds(10);

  private final Path file;
  private final LongSupplier revision;
  private final Supplier<List<SessionView>> sessions;
  private final String engine;
  private final Clock clock;
  private final NotifyRules rules;
  private HttpClient http; // made for the first webhook: a client keeps a thread
  private final Thread thread;
  private volatile List<Lane> lanes = List.of();
  private FileStamp stamp = null;
  private long seenRevision = Long.MIN_VALUE;
  private volatile boolean closed;
  private final Object moved = new Object();
  private boolean hasMoved; // guarded by moved
  private volatile Runnable stopFollowing = () -> {};

  private Notifier(
      Path file,
      LongSupplier revision,
      Supplier<List<SessionView>> sessions,
      String engine,
      Clock clock) {
    this.file = file;
    this.revision = revision;
    this.sessions = sessions;
    this.engine = engine;
    this.clock = clock;
    this.rules = new NotifyRules(NotifyRules.Settings.DEFAULT, clock);
    this.thread = new Thread(this::run, "notify");
    this.thread.setDaemon(true);
  }

  /**
   * Reads {@code file} and starts following {@code feed}.
   *
   * @param sessions every session as the state shows it (called after each change, on the
   *     notifier's thread)
   * @param engine the engine's URL, named in each notice
   */
  public static Notifier start(
      Path file,
      ChangeFeed feed,
      Supplier<List<SessionView>> sessions,
      String engine,
      Clock clock) {
    Notifier notifier = new Notifier(file, feed::revision, sessions, engine, clock);
    Runnable follower = notifier::moved;
    feed.follow(follower);
    notifier.stopFollowing = () -> feed.unfollow(follower);
    notifier.begin();
    return notifier;
  }

  /**
   * A notifier that looks at the sessions when {@code revision} moved and it is told so ({@link
   * #moved}): a test's feed.
   */
  static Notifier start(
      Path file,
      LongSupplier revision,
      Supplier<List<SessionView>> sessions,
      String engine,
      Clock clock) {
    Notifier notifier = new Notifier(file, revision, sessions, engine, clock);
    notifier.begin();
    return notifier;
  }

  private void begin() {
    reloadIfChanged();
    thread.start();
  }

  /** How many targets it tells now. */
  public int targets() {
    return lanes.size();
  }

  /** On the watcher's thread: a flag and a wake-up, nothing more. */
  void moved() {
    synchronized (moved) {
      hasMoved = true;
      moved.notifyAll();
    }
  }

  private void run() {
    while (!closed) {
      try {
        reloadIfChanged();
        long wait = IDLE_MILLIS;
        if (lanes.isEmpty()) {
          rules.reset();
          seenRevision = Long.MIN_VALUE; // the first target's first look is at once
        } else {
          long now = revision.getAsLong();
          if (now != seenRevision) {
            seenRevision = now;
            publish(rules.observe(sessions.get()));
          }
          publish(rules.due());
          long next = rules.nextDueMillis();
          if (next != Long.MAX_VALUE) {
            wait = Math.max(1, Math.min(wait, next - clock.millis()));
          }
        }
        synchronized (moved) {
          if (!hasMoved) {
            moved.wait(wait);
          }
          hasMoved = false;
        }
      } catch (InterruptedException e) {
        break;
      } catch (RuntimeException e) {
        log.warn("notifications: a look at the sessions failed, tried again: {}", e.toString());
        sleepQuietly();
      }
    }
  }

  /** Hands each notice to the lanes of the targets that want it. Never waits. */
  void publish(List<Notice> notices) {
    for (Notice notice : notices) {
      for (Lane lane : lanes) {
        Notice wanted = lane.target().selection().pick(notice);
        if (wanted != null) {
          lane.offer(wanted);
        }
      }
    }
  }

  private void reloadIfChanged() {
    FileStamp now = FileStamp.of(file);
    if (now.equals(stamp)) {
      return;
    }
    stamp = now;
    NotifyConfig config =
        NotifyConfig.read(file, problem -> log.warn("notifications: {}", problem));
    rules.settings(config.rules());
    List<Lane> started = new ArrayList<>();
    for (Target target : config.targets()) {
      started.add(Lane.start(target, sender(target), clock));
    }
    List<Lane> old = lanes;
    lanes = List.copyOf(started);
    old.forEach(Lane::close);
    if (!started.isEmpty() || !old.isEmpty()) {
      List<String> labels = new ArrayList<>();
      started.forEach(lane -> labels.add(lane.target().label()));
      log.info(
          "notifications: {} target(s) from {}{}",
          started.size(),
          file,
          labels.isEmpty() ? "" : ": " + String.join(", ", labels));
    }
  }

  private Sender sender(Target target) {
    if (target instanceof Target.Webhook webhook) {
      if (http == null) {
        http =
            HttpClient.newBuilder()
                .connectTimeout(CONNECT_LIMIT)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
      }
      return new WebhookSender(webhook, http, ANSWER_LIMIT, engine);
    }
    return new CommandSender((Target.Command) target, engine);
  }

  private void sleepQuietly() {
    try {
      Thread.sleep(IDLE_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    closed = true;
    stopFollowing.run();
    thread.interrupt();
    lanes.forEach(Lane::close);
  }
}
