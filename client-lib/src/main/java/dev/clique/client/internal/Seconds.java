package dev.clique.client.internal;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;

/** The engine counts in seconds, whole or fractional; Java counts in {@link Duration}s. */
final class Seconds {
  private Seconds() {}

  /** {@code 60} for a minute, {@code 2.5} for two and a half seconds: no exponent, no ".0". */
  static String format(Duration duration) {
    BigDecimal seconds =
        BigDecimal.valueOf(duration.getSeconds()).add(BigDecimal.valueOf(duration.getNano(), 9));
    return seconds.stripTrailingZeros().toPlainString();
  }

  /** Unix seconds as an instant, to the nanosecond. */
  static Instant instant(BigDecimal unixSeconds) {
    long whole = unixSeconds.setScale(0, RoundingMode.FLOOR).longValueExact();
    return Instant.ofEpochSecond(whole, nanos(unixSeconds, whole));
  }

  /** A count of seconds as a duration, to the nanosecond. */
  static Duration duration(BigDecimal seconds) {
    long whole = seconds.setScale(0, RoundingMode.FLOOR).longValueExact();
    return Duration.ofSeconds(whole, nanos(seconds, whole));
  }

  private static long nanos(BigDecimal seconds, long whole) {
    return seconds
        .subtract(BigDecimal.valueOf(whole))
        .movePointRight(9)
        .setScale(0, RoundingMode.HALF_UP)
        .longValueExact();
  }
}
