package dev.clique.engine.notify;

import dev.clique.engine.home.FileStamp;
import dev.clique.engine.session.ChangeFeed;
import dev.clique.engine.session.SessionException;
import dev.clique.engine.session.SessionService;
import dev.clique.engine.session.SessionView;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the targets of {@code notify.toml} what the sessions need, on a thread of its own: it waits
 * for the {@link ChangeFeed} to move (the watcher only raises a flag), looks at the sessions then,
 * and hands the notices the rules make to each target's {@link Lane}. The file is read at the start
 * and again once it changed; with no target, the sessions are not looked at.
 */
public final class Notifier implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Notifier.class);

  /** The longest it sleeps with nothing due: how soon a changed {@code notify.toml} is read. */
  static final long IDLE_MILLIS = 2_000;

  /** A person whose client was active this recently is looking at the session. */
  static final Duration LOOKING = Duration.ofMinutes(1);

  static final Duration CONNECT_LIMIT = Duration.ofSeconds(5);
  static final Duration ANSWER_LIMIT = Duration.ofSeconds(10);

  private final Path file;
  private final LongSupplier revision;
  private final Supplier<List<SessionView>> sessions;
  private final Function<String, String> lastLine;
  private final Predicate<SessionView> watched;
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
      Function<String, String> lastLine,
      Predicate<SessionView> watched,
      String engine,
      Clock clock) {
    this.watched = watched;
    this.file = file;
    this.revision = revision;
    this.sessions = sessions;
    this.lastLine = lastLine;
    this.engine = engine;
    this.clock = clock;
    this.rules = new NotifyRules(NotifyRules.Settings.DEFAULT, clock);
    this.thread = new Thread(this::run, "notify");
    this.thread.setDaemon(true);
  }

  /**
   * Reads {@code file} and starts following the sessions' change feed.
   *
   * @param sessions what it looks at after each change (on its own thread): the sessions as the
   *     state shows them, and a stopped one's last screen
   * @param engine the engine's URL, named in each notice
   */
  public static Notifier start(Path file, SessionService sessions, String engine, Clock clock) {
    ChangeFeed feed = sessions.changes();
    Notifier notifier =
        new Notifier(
            file,
            feed::revision,
            sessions::sessions,
            id -> lastLine(sessions, id),
            view -> sessions.watched(view.id(), LOOKING),
            engine,
            clock);
    Runnable follower = notifier::moved;
    feed.follow(follower);
    notifier.stopFollowing = () -> feed.unfollow(follower);
    notifier.begin();
    return notifier;
  }

  /** The last line the session's program left on its screen (a dead pane's is kept), or null. */
  private static String lastLine(SessionService sessions, String id) {
    try {
      List<String> lines = sessions.peek(id, 20).lines();
      for (int i = lines.size() - 1; i >= 0; i--) {
        // tmux's own line under a dead pane ("Pane is dead (status 3, <date>)") is not the CLI's.
        if (!lines.get(i).isBlank() && !lines.get(i).startsWith("Pane is dead (")) {
          return lines.get(i).strip();
        }
      }
    } catch (SessionException | RuntimeException e) {
      log.debug("the last screen of {} could not be read: {}", id, e.getMessage());
    }
    return null;
  }

  /**
   * A notifier that looks at the sessions when {@code revision} moved and it is told so ({@link
   * #moved}): a test's feed.
   */
  static Notifier start(
      Path file,
      LongSupplier revision,
      Supplier<List<SessionView>> sessions,
      Function<String, String> lastLine,
      Predicate<SessionView> watched,
      String engine,
      Clock clock) {
    Notifier notifier = new Notifier(file, revision, sessions, lastLine, watched, engine, clock);
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

  /** Each target it tells, with how its last delivery ended. */
  public List<NotifyTargets.Status> status() {
    List<NotifyTargets.Status> all = new ArrayList<>();
    for (Lane lane : lanes) {
      all.add(NotifyTargets.status(lane.target(), lane.last()));
    }
    return List.copyOf(all);
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
    for (Notice made : notices) {
      Notice notice = rules.settings().skipWhenWatched() ? unwatched(made) : made;
      if (notice == null) {
        continue;
      }
      notice = notice.event() == Event.STOPPED ? withLastLines(notice) : notice;
      for (Lane lane : lanes) {
        Notice wanted = lane.target().selection().pick(notice);
        if (wanted != null) {
          lane.offer(wanted);
        }
      }
    }
  }

  /**
   * {@code notice} about only the sessions no person is looking at, or null when one looks at each:
   * tmux is asked now, as it is about to go, never on every look.
   */
  private Notice unwatched(Notice notice) {
    List<SessionView> unwatched = new ArrayList<>();
    for (SessionView view : notice.sessions()) {
      if (watched.test(view)) {
        log.debug(
            "notifications: a person looks at {}: its {} is not told",
            view.id(),
            notice.event().wireName());
      } else {
        unwatched.add(view);
      }
    }
    if (unwatched.isEmpty()) {
      return null;
    }
    return unwatched.size() == notice.sessions().size() ? notice : notice.about(unwatched);
  }

  private Notice withLastLines(Notice notice) {
    Map<String, String> lines = new HashMap<>();
    for (SessionView view : notice.sessions()) {
      String line = lastLine.apply(view.id());
      if (line != null) {
        lines.put(view.id(), line);
      }
    }
    return notice.withLastLines(lines);
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
