package dev.clique.engine.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock a test moves by hand. */
public final class MutableClock extends Clock {
  private volatile long millis;

  public MutableClock(long startMillis) {
    this.millis = startMillis;
  }

  /** A clock at a fixed, realistic moment (unix seconds in the 2020s). */
  public static MutableClock start() {
    return new MutableClock(1_750_000_000_000L);
  }

  public void advance(Duration by) {
    millis += by.toMillis();
  }

  public void advanceMillis(long by) {
    millis += by;
  }

  @Override
  public long millis() {
    return millis;
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
