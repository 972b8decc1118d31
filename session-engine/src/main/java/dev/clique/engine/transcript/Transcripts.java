package dev.clique.engine.transcript;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the conversation of a Claude Code, Codex or Gemini CLI session from the transcript file the
 * CLI writes: what the person typed and the assistant's prose, oldest first, consecutive turns of
 * one role merged by a blank line, at most the last 300 turns. Only the last MiB of a file is read,
 * however large it is, and an unchanged file is not read again. Thread-safe; keep one instance for
 * the engine's lifetime so its cache pays off.
 *
 * <pre>{@code
 * Transcripts transcripts =
 *     new Transcripts(TranscriptRoots.fromEnvironment(System.getenv(), userHome));
 * List<Turn> turns = transcripts.turns(
 *     new TranscriptRequest("claude", session.id(), session.cliSessionId(), session.cwd(),
 *         session.created()));
 * }</pre>
 */
public final class Transcripts {

  private static final Set<String> KINDS =
      Collections.unmodifiableSet(new LinkedHashSet<>(List.of("claude", "codex", "gemini")));

  /** Looked up on first use: a call that goes well never starts the logging machinery. */
  private static final class Log {
    static final Logger LOG = LoggerFactory.getLogger(Transcripts.class);
  }

  private record Source(TranscriptLocator locator, TranscriptReader reader) {}

  private final TranscriptRoots roots;
  private final Clock clock;
  private final HeadFields heads;
  private final Map<String, Source> sources;

  /** The readers of CLIs that keep their files elsewhere (a discovered CLI's own environment). */
  private final Map<TranscriptRoots, Map<String, Source>> elsewhere = new ConcurrentHashMap<>();

  private static final int MAX_ELSEWHERE = 64;

  private final TailCache tails = new TailCache();

  /**
   * A reader of the transcripts under these roots, on the system clock and time zone (Codex names
   * its day directories in local time).
   */
  public Transcripts(TranscriptRoots roots) {
    this(roots, Clock.systemDefaultZone());
  }

  Transcripts(TranscriptRoots roots, Clock clock) {
    Objects.requireNonNull(roots, "roots");
    Objects.requireNonNull(clock, "clock");
    this.roots = roots;
    this.clock = clock;
    this.heads = new HeadFields(tails.bytesRead());
    this.sources = sources(roots);
  }

  private Map<String, Source> sources(TranscriptRoots roots) {
    return Map.of(
        "claude",
        new Source(
            new ClaudeTranscriptLocator(roots.claudeConfigDir()), new ClaudeTranscriptReader()),
        "codex",
        new Source(
            new CodexTranscriptLocator(roots.codexHome(), clock, heads),
            new CodexTranscriptReader()),
        "gemini",
        new Source(
            new GeminiTranscriptLocator(roots.geminiHome(), clock, heads),
            new GeminiTranscriptReader()));
  }

  /**
   * The session kinds that have a transcript reader: {@code claude}, {@code codex}, {@code gemini}.
   */
  public static Set<String> kinds() {
    return KINDS;
  }

  /**
   * The session's conversation, oldest first. Empty when its kind has no reader, when the CLI has
   * not written its transcript yet, or when the file cannot be read; lines that are not JSON
   * objects are skipped, so bad content never fails the call.
   */
  public List<Turn> turns(TranscriptRequest request) {
    return turns(request, roots);
  }

  /**
   * As {@link #turns(TranscriptRequest)}, for a CLI that keeps its files under {@code roots} rather
   * than where this engine's environment says (a discovered CLI, by its own environment).
   */
  public List<Turn> turns(TranscriptRequest request, TranscriptRoots roots) {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(roots, "roots");
    if (elsewhere.size() > MAX_ELSEWHERE && !elsewhere.containsKey(roots)) {
      elsewhere.clear(); // roots of CLIs long gone; their caches fill again on use
    }
    Map<String, Source> readers =
        roots.equals(this.roots) ? sources : elsewhere.computeIfAbsent(roots, this::sources);
    Source source = readers.get(request.kind());
    if (source == null) {
      return List.of();
    }
    try {
      Optional<Path> file = source.locator().locate(request);
      return file.isEmpty() ? List.of() : tails.turns(source.reader(), file.get());
    } catch (IOException | UncheckedIOException | DirectoryIteratorException e) {
      Log.LOG.debug("transcript of session {} not readable", request.sessionId(), e);
      return List.of();
    }
  }

  /** The turns of one known file, read by the reader of {@code kind}; for tests. */
  List<Turn> turnsOf(String kind, Path file) throws IOException {
    return tails.turns(sources.get(kind).reader(), file);
  }

  /** Every transcript byte read so far (tails and heads); for tests and the benchmark. */
  long bytesRead() {
    return tails.bytesRead().get();
  }
}
