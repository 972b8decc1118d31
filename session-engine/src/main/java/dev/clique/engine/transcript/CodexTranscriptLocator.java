package dev.clique.engine.transcript;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Codex writes {@code sessions/YYYY/MM/DD/rollout-<local time>-<uuid>.jsonl} under its home, the
 * first line being {@code session_meta} with {@code payload.id} and {@code payload.cwd}. A session
 * is found by that id when its CLI id is known, or else as the one in the same directory that
 * started closest after clique created the session. Only the day directories around the creation
 * day and today are listed, and of each file only the head is read.
 */
final class CodexTranscriptLocator implements TranscriptLocator {

  /** Codex may write its first line a moment before clique records the session as created. */
  static final Duration START_SLACK = Duration.ofSeconds(5);

  static final String ID = "/payload/id";
  static final String CWD = "/payload/cwd";
  static final String STARTED = "/payload/timestamp";
  static final String LINE_TIME = "/timestamp";
  private static final List<String> HEAD = List.of(ID, CWD, STARTED, LINE_TIME);

  private final Path sessions;
  private final Clock clock;
  private final HeadFields heads;
  private final Map<String, Path> byId = new ConcurrentHashMap<>();
  private final Set<String> walked = ConcurrentHashMap.newKeySet();

  CodexTranscriptLocator(Path codexHome, Clock clock, HeadFields heads) {
    this.sessions = codexHome.resolve("sessions");
    this.clock = clock;
    this.heads = heads;
  }

  @Override
  public Optional<Path> locate(TranscriptRequest request) throws IOException {
    if (!Files.isDirectory(sessions)) {
      return Optional.empty();
    }
    List<Path> rollouts = rolloutsAround(request.created());
    String id = request.cliSessionId();
    if (id != null) {
      Optional<Path> withId = byId(id, rollouts);
      if (withId.isPresent()) {
        return withId;
      }
    }
    if (request.cwd() == null || request.created() == null) {
      return Optional.empty();
    }
    SameDirectory cwd = new SameDirectory(request.cwd());
    Instant notBefore = request.created().minus(START_SLACK);
    Path closest = null;
    Instant closestStart = null;
    for (Path rollout : rollouts) {
      Map<String, String> head = head(rollout);
      Instant start = start(head);
      if (start == null || start.isBefore(notBefore) || !cwd.matches(head.get(CWD))) {
        continue;
      }
      if (closest == null || start.isBefore(closestStart)) {
        closest = rollout;
        closestStart = start;
      }
    }
    return Optional.ofNullable(closest);
  }

  private Optional<Path> byId(String id, List<Path> rollouts) throws IOException {
    Path known = byId.get(id);
    if (known != null && Files.isRegularFile(known)) {
      return Optional.of(known);
    }
    String suffix = "-" + id + ".jsonl";
    // The file name carries the id: look at names first, then at heads.
    for (Path rollout : rollouts) {
      if (rollout.getFileName().toString().endsWith(suffix)) {
        return remember(id, rollout);
      }
    }
    for (Path rollout : rollouts) {
      if (id.equals(head(rollout).get(ID))) {
        return remember(id, rollout);
      }
    }
    // A resumed session keeps appending to its first file, which may be from any day: look for
    // the name once in the whole tree (names only, nothing is read).
    if (walked.add(id)) {
      try (Stream<Path> all =
          Files.find(
              sessions,
              4,
              (path, attributes) ->
                  attributes.isRegularFile() && path.getFileName().toString().endsWith(suffix))) {
        Optional<Path> named = all.findFirst();
        if (named.isPresent()) {
          return remember(id, named.get());
        }
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
    }
    return Optional.empty();
  }

  private Optional<Path> remember(String id, Path rollout) {
    byId.put(id, rollout);
    return Optional.of(rollout);
  }

  private Map<String, String> head(Path rollout) {
    try {
      return heads.read(rollout, HEAD);
    } catch (IOException e) {
      return Map.of(); // vanished or unreadable: not this one
    }
  }

  private static Instant start(Map<String, String> head) {
    for (String pointer : List.of(STARTED, LINE_TIME)) {
      String value = head.get(pointer);
      if (value != null) {
        try {
          return Instant.parse(value);
        } catch (DateTimeParseException e) {
          // try the next one
        }
      }
    }
    return null;
  }

  /** The rollout files of the days around {@code created} and of today, in Codex's local time. */
  private List<Path> rolloutsAround(Instant created) throws IOException {
    Set<LocalDate> days = new LinkedHashSet<>();
    LocalDate today = LocalDate.now(clock);
    days.add(today);
    days.add(today.minusDays(1));
    if (created != null) {
      LocalDate day = LocalDate.ofInstant(created, clock.getZone());
      days.add(day.minusDays(1));
      days.add(day);
      days.add(day.plusDays(1));
    }
    List<Path> rollouts = new ArrayList<>();
    for (LocalDate day : days) {
      Path dir =
          sessions
              .resolve(String.format("%04d", day.getYear()))
              .resolve(String.format("%02d", day.getMonthValue()))
              .resolve(String.format("%02d", day.getDayOfMonth()));
      if (!Files.isDirectory(dir)) {
        continue;
      }
      try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "rollout-*.jsonl")) {
        for (Path file : files) {
          rollouts.add(file);
        }
      }
    }
    return rollouts;
  }
}
