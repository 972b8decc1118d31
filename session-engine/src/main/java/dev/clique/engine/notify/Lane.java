package dev.clique.engine.notify;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One target's deliveries: a bounded queue (the oldest notice dropped, with one log line, when it
 * is full), its own thread, its rate limit, tries again with a growing pause after a time-out or a
 * 5xx; one log line when the target starts failing and one when it works again. {@link #offer}
 * never waits.
 */
final class Lane implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Lane.class);

  static final int CAPACITY = 64;
  static final int ATTEMPTS = 4;
  static final Duration FIRST_PAUSE = Duration.ofSeconds(1);
  private static final long MINUTE = 60_000;

  private final Target target;
  private final Sender sender;
  private final Clock clock;
  private final int capacity;
  private final Duration firstPause;
  private final Deque<Notice> queue = new ArrayDeque<>(); // guarded by itself
  private final Deque<Long> sent = new ArrayDeque<>(); // times of the last minute's tries
  private final Thread thread;
  private boolean overflowing; // guarded by queue
  private boolean failing;
  private int dropped;
  private volatile int delivered;
  private volatile Delivery last; // null until its first delivery ends

  private Lane(Target target, Sender sender, Clock clock, int capacity, Duration firstPause) {
    this.target = target;
    this.sender = sender;
    this.clock = clock;
    this.capacity = capacity;
    this.firstPause = firstPause;
    this.thread = new Thread(this::run, "notify-" + target.label().split(" ", 3)[0] + "-lane");
    this.thread.setDaemon(true);
  }

  static Lane start(Target target, Sender sender, Clock clock) {
    return start(target, sender, clock, CAPACITY, FIRST_PAUSE);
  }

  static Lane start(Target target, Sender sender, Clock clock, int capacity, Duration firstPause) {
    Lane lane = new Lane(target, sender, clock, capacity, firstPause);
    lane.thread.start();
    return lane;
  }

  Target target() {
    return target;
  }

  /** How many notices it delivered (for tests and, later, for the person). */
  int delivered() {
    return delivered;
  }

  /** How its last delivery ended, or null before the first. */
  Delivery last() {
    return last;
  }

  /** Queues {@code notice}, at once: a full queue drops its oldest. */
  void offer(Notice notice) {
    synchronized (queue) {
      if (queue.size() >= capacity) {
        queue.pollFirst();
        if (!overflowing) {
          overflowing = true;
          log.warn(
              "{}: {} notices wait already, so the oldest are dropped until it catches up",
              target.label(),
              capacity);
        }
      }
      queue.addLast(notice);
      queue.notifyAll();
    }
  }

  private Notice take() throws InterruptedException {
    synchronized (queue) {
      while (queue.isEmpty()) {
        overflowing = false;
        queue.wait();
      }
      return queue.pollFirst();
    }
  }

  private void run() {
    try {
      while (!Thread.currentThread().isInterrupted()) {
        Notice notice = take();
        if (overRate()) {
          continue;
        }
        deliver(notice);
      }
    } catch (InterruptedException e) {
      // closed
    }
  }

  /** Whether the rate limit drops this notice; said once a minute while it drops. */
  private boolean overRate() {
    long now = clock.millis();
    while (!sent.isEmpty() && now - sent.peekFirst() >= MINUTE) {
      sent.pollFirst();
    }
    if (sent.isEmpty() && dropped > 0) {
      log.info(
          "{}: {} notices were dropped by its limit of {} a minute",
          target.label(),
          dropped,
          target.perMinute());
      dropped = 0;
    }
    if (sent.size() >= target.perMinute()) {
      if (dropped++ == 0) {
        log.warn(
            "{}: more than {} notices a minute: the rest of this minute's are dropped",
            target.label(),
            target.perMinute());
      }
      return true;
    }
    sent.addLast(now);
    return false;
  }

  private void deliver(Notice notice) throws InterruptedException {
    Outcome outcome = null;
    long pause = firstPause.toMillis();
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        outcome = sender.send(notice);
      } catch (RuntimeException e) {
        // A notice this target cannot take must not end its lane for those after it; its
        // message is not said, as it could name the URL.
        outcome = Outcome.failed("could not be sent (" + e.getClass().getName() + ")");
      }
      if (outcome.kind() != Outcome.Kind.RETRY || attempt == ATTEMPTS) {
        break;
      }
      log.debug("{}: {}; trying again in {} ms", target.label(), outcome.said(), pause);
      Thread.sleep(pause);
      pause *= 2;
    }
    last =
        new Delivery(
            Instant.ofEpochMilli(clock.millis()),
            notice.event().wireName(),
            outcome.kind() == Outcome.Kind.DELIVERED,
            outcome.said());
    if (outcome.kind() == Outcome.Kind.DELIVERED) {
      delivered++;
      if (failing) {
        failing = false;
        log.info("{}: delivers again", target.label());
      }
    } else if (!failing) {
      failing = true;
      log.warn(
          "{}: a {} notice was not delivered: {}{}",
          target.label(),
          notice.event().wireName(),
          outcome.said(),
          outcome.kind() == Outcome.Kind.RETRY ? " (tried " + ATTEMPTS + " times)" : "");
    } else {
      log.debug("{}: still failing: {}", target.label(), outcome.said());
    }
  }

  @Override
  public void close() {
    thread.interrupt();
  }
}
