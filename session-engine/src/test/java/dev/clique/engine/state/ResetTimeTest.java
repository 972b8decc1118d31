package dev.clique.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class ResetTimeTest {
  private static final ZoneId PARIS = ZoneId.of("Europe/Paris");
  private static final Instant NOW = Instant.parse("2026-12-02T16:50:00Z"); // 17:50 in Paris

  @Test
  void aClockTimeLaterTodayIsToday() {
    assertThat(ResetTime.parse("7:52 PM", NOW, PARIS)).isEqualTo("2026-12-02T18:52:00Z");
    assertThat(ResetTime.parse("7:54pm", NOW, PARIS)).isEqualTo("2026-12-02T18:54:00Z");
    assertThat(ResetTime.parse("19:52", NOW, PARIS)).isEqualTo("2026-12-02T18:52:00Z");
  }

  @Test
  void aClockTimeAlreadyPastIsTomorrow() {
    assertThat(ResetTime.parse("9:05 AM", NOW, PARIS)).isEqualTo("2026-12-03T08:05:00Z");
    assertThat(ResetTime.parse("12:00 AM", NOW, PARIS)).isEqualTo("2026-12-02T23:00:00Z");
  }

  @Test
  void aDayBeforeTheTimeIsThatDay() {
    assertThat(ResetTime.parse("Dec 9 7:52 PM", NOW, PARIS)).isEqualTo("2026-12-09T18:52:00Z");
    assertThat(ResetTime.parse("Jan 2, 2027 7:52 PM", NOW, PARIS))
        .isEqualTo("2027-01-02T18:52:00Z");
    assertThat(ResetTime.parse("Jan 2 7:52 PM", NOW, PARIS)).isEqualTo("2027-01-02T18:52:00Z");
    // Codex names another day with its ordinal.
    assertThat(ResetTime.parse("Dec 4th, 2026 12:13 AM", NOW, PARIS))
        .isEqualTo("2026-12-03T23:13:00Z");
    assertThat(ResetTime.parse("Jan 1st 7:52 PM", NOW, PARIS)).isEqualTo("2027-01-01T18:52:00Z");
    assertThat(ResetTime.parse("Dec 22nd 9:00 AM", NOW, PARIS)).isEqualTo("2026-12-22T08:00:00Z");
  }

  @Test
  void wordsThatNameNoTimeGiveNoneNeverAGuess() {
    assertThat(ResetTime.parse("", NOW, PARIS)).isNull();
    assertThat(ResetTime.parse("soon", NOW, PARIS)).isNull();
    assertThat(ResetTime.parse("13:05 PM", NOW, PARIS)).isNull();
    assertThat(ResetTime.parse("25:00", NOW, PARIS)).isNull();
    assertThat(ResetTime.parse("Foo 3 7:52 PM", NOW, PARIS)).isNull();
  }
}
