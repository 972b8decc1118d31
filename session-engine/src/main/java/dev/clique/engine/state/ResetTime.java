package dev.clique.engine.state;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.Month;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.TextStyle;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * When a usage limit lifts, from the words a CLI shows it in: a clock time in the machine's zone
 * ({@code 7:52 PM}, {@code 7:54pm}, {@code 19:52}), with a day before it where the CLI names one
 * ({@code Dec 3 7:52 PM}, {@code Dec 3, 2026 7:52 PM}, {@code Dec 4th, 2026 12:13 AM}). A time
 * without a day is its next occurrence. Anything else says nothing: a time is never guessed.
 */
final class ResetTime {
  private static final Pattern WORDS =
      Pattern.compile(
          "(?i)^(?:(?<month>[a-z]{3})[a-z]* (?<day>\\d{1,2})(?:st|nd|rd|th)?(?:, (?<year>\\d{4}))?,?"
              + "(?: at)? )?"
              + "(?<hour>\\d{1,2}):(?<minute>\\d{2})\\s*(?<half>[ap]\\.?m\\.?)?$");

  private ResetTime() {}

  /**
   * The instant {@code words} name, seen at {@code now} in {@code zone}; null when they name none.
   */
  static Instant parse(String words, Instant now, ZoneId zone) {
    if (words == null || words.isBlank()) {
      return null;
    }
    Matcher m = WORDS.matcher(words.strip().replaceAll("\\s+", " "));
    if (!m.matches()) {
      return null;
    }
    try {
      int hour = Integer.parseInt(m.group("hour"));
      int minute = Integer.parseInt(m.group("minute"));
      String half = m.group("half");
      if (half != null) {
        if (hour < 1 || hour > 12) {
          return null;
        }
        hour = hour % 12 + (Character.toLowerCase(half.charAt(0)) == 'p' ? 12 : 0);
      }
      LocalTime time = LocalTime.of(hour, minute);
      ZonedDateTime seen = now.atZone(zone);
      if (m.group("month") == null) {
        ZonedDateTime today = LocalDateTime.of(seen.toLocalDate(), time).atZone(zone);
        return (today.isBefore(seen) ? today.plusDays(1) : today).toInstant();
      }
      Month month = month(m.group("month"));
      if (month == null) {
        return null;
      }
      int day = Integer.parseInt(m.group("day"));
      int year = m.group("year") == null ? seen.getYear() : Integer.parseInt(m.group("year"));
      ZonedDateTime at = LocalDateTime.of(LocalDate.of(year, month, day), time).atZone(zone);
      if (m.group("year") == null && at.isBefore(seen.minusDays(1))) {
        at = at.plusYears(1); // "Jan 2" seen on Dec 31
      }
      return at.toInstant();
    } catch (DateTimeException | NumberFormatException e) {
      return null;
    }
  }

  private static Month month(String name) {
    for (Month month : Month.values()) {
      if (month.getDisplayName(TextStyle.SHORT, Locale.ENGLISH).equalsIgnoreCase(name)) {
        return month;
      }
    }
    return null;
  }
}
