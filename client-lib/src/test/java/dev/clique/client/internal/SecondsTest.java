package dev.clique.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SecondsTest {
  @Test
  void wholeSecondsHaveNoDecimalPoint() {
    assertThat(Seconds.format(Duration.ofSeconds(60))).isEqualTo("60");
    assertThat(Seconds.format(Duration.ofSeconds(300))).isEqualTo("300");
    assertThat(Seconds.format(Duration.ZERO)).isEqualTo("0");
  }

  @Test
  void fractionsAreDecimalsWithoutTrailingZeros() {
    assertThat(Seconds.format(Duration.ofMillis(2500))).isEqualTo("2.5");
    assertThat(Seconds.format(Duration.ofMillis(250))).isEqualTo("0.25");
    assertThat(Seconds.format(Duration.ofMillis(1))).isEqualTo("0.001");
    assertThat(Seconds.format(Duration.ofSeconds(75, 1))).isEqualTo("75.000000001");
  }

  @Test
  void unixSecondsBecomeInstantsToTheNanosecond() {
    assertThat(Seconds.instant(new BigDecimal("1767171234.87")))
        .isEqualTo(Instant.ofEpochSecond(1767171234L, 870_000_000L));
    assertThat(Seconds.instant(BigDecimal.ZERO)).isEqualTo(Instant.EPOCH);
    assertThat(Seconds.instant(new BigDecimal("-1.5")))
        .isEqualTo(Instant.ofEpochSecond(-2L, 500_000_000L));
    assertThat(Seconds.instant(new BigDecimal("0.9999999999"))).isEqualTo(Instant.ofEpochSecond(1));
  }

  @Test
  void secondsBecomeDurations() {
    assertThat(Seconds.duration(new BigDecimal("12.3"))).isEqualTo(Duration.ofMillis(12_300));
    assertThat(Seconds.duration(new BigDecimal("60.0"))).isEqualTo(Duration.ofSeconds(60));
  }
}
