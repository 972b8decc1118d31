package dev.clique.engine.transcript;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the conversation of a Claude Code, Codex, Gemini CLI, Qwen Code, GitHub Copilot CLI or pi
 * session from the transcript file the CLI writes: what the person typed and the assistant's prose,
 * oldest first, consecutive turns of one role merged by a blank line, at most the last 300 turns. A
 * file is read backwards from its end until it holds more than 300 turns, never further than 12 MiB
 * from its end however large it is, and an unchanged file is not read again. Thread-safe; keep one
 * instance for the engine's lifetime so its cache pays off.
 *
 * <p>A request that carries its session's environment is looked up where that environment sends the
 * CLI ({@link TranscriptRoots#forSession}); one without, under the roots given here.
 *
 * <pre>{@code
 * Transcripts transcripts = new Transcripts(engineSettings.transcriptRoots());
 * List<Turn> turns = transcripts.turns(
 *     new TranscriptRequest("claude", session.id(), session.cliSessionId(), session.cwd(),
 *         session.created()));
 * }</pre>
 */
public final class Transcripts {

  private static final Set<String> KINDS =
      Collections.unmodifiableSet(
          new LinkedHashSet<>(
              List.of("claude", "codex", "gemini", "qwen", "copilot", "pi", "opencode")));

  /** A CLI that keeps its conversations in a database rather than one file per session. */
  private static final String OPENCODE = "opencode";

  /** Looked up on first use: a call that goes well never starts the logging machinery. */
  private static final class Log {
    static final Logger LOG = LoggerFactory.getLogger(Transcripts.class);
  }

  private record Source(TranscriptLocator locator, TranscriptReader reader, UsageReader usage) {}

  /** A session's transcript file and how to read it. */
  private record Located(Source source, Path file) {}

  /** Sessions under this many different roots keep their locators' caches at once. */
  static final int MAX_ROOTS = 16;

  private final TranscriptRoots roots;
  private final Clock clock;
  private final TailCache tails = new TailCache();
  private final HeadFields heads = tails.heads();
  private final TranscriptReader claudeReader = new ClaudeTranscriptReader();
  private final TranscriptReader codexReader = new CodexTranscriptReader();
  private final TranscriptReader geminiReader = new GeminiTranscriptReader();
  private final TranscriptReader qwenReader = new QwenTranscriptReader();
  private final TranscriptReader copilotReader = new CopilotTranscriptReader();
  private final TranscriptReader piReader = new PiTranscriptReader();
  private final UsageCache usages = new UsageCache(tails.bytesRead(), UsageCache.MAX_FILES);
  private final UsageCache subagentUsages =
      new UsageCache(tails.bytesRead(), UsageCache.MAX_SUBAGENT_FILES);
  private final UsageReader claudeUsage = new ClaudeUsageReader();
  private final UsageReader codexUsage = new CodexUsageReader();
  private final UsageReader geminiUsage = new GeminiUsageReader();
  private final UsageReader qwenUsage = new QwenUsageReader();
  private final UsageReader copilotUsage = new CopilotUsageReader();
  private final UsageReader piUsage = new PiUsageReader();
  private final OpencodeConversation.Kept opencode = new OpencodeConversation.Kept();

  private final Map<TranscriptRoots, Map<String, Source>> sourcesByRoots =
      RecentlyUsed.map(MAX_ROOTS);

  /**
   * A reader of the transcripts under these roots, on the system clock and time zone (Codex names
   * its day directories in local time).
   */
  public Transcripts(TranscriptRoots roots) {
    this(roots, Clock.systemDefaultZone());
  }

  Transcripts(TranscriptRoots roots, Clock clock) {
    this.roots = Objects.requireNonNull(roots, "roots");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  private synchronized Map<String, Source> sources(TranscriptRoots roots) {
    return sourcesByRoots.computeIfAbsent(roots, this::newSources);
  }

  private Map<String, Source> newSources(TranscriptRoots roots) {
    return Map.of(
        "claude",
        new Source(new ClaudeTranscriptLocator(roots.claudeConfigDir()), claudeReader, claudeUsage),
        "codex",
        new Source(
            new CodexTranscriptLocator(roots.codexHome(), clock, heads), codexReader, codexUsage),
        "gemini",
        new Source(
            new GeminiTranscriptLocator(roots.geminiHome(), clock, heads),
            geminiReader,
            geminiUsage),
        "qwen",
        new Source(new QwenTranscriptLocator(roots.qwenHome()), qwenReader, qwenUsage),
        "copilot",
        new Source(
            new CopilotTranscriptLocator(roots.copilotHome(), heads), copilotReader, copilotUsage),
        "pi",
        new Source(new PiTranscriptLocator(roots.piAgentDir(), heads), piReader, piUsage));
  }

  /**
   * The session kinds that have a transcript reader: {@code claude}, {@code codex}, {@code gemini},
   * {@code qwen}, {@code copilot}, {@code pi}.
   */
  public static Set<String> kinds() {
    return KINDS;
  }

  /**
   * The session's conversation, oldest first. Empty when its kind has no reader, when the CLI has
   * not written its transcript yet, or when the file cannot be read; lines that are not JSON
   * objects are skipped (the last one may be still being written), and so are records of kinds that
   * hold no turn; opencode's database it cannot read as it knows it is an error too.
   *
   * @throws UnreadableTranscriptException when the file is there but of a format that would be read
   *     wrong (a newer version, no header where the CLI writes one), or when a prompt or an answer
   *     in it holds content of a kind its reader does not know: the message names the file, the
   *     record's line and the CLI's version where the file says it
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
    if (request.kind().equals(OPENCODE)) {
      return opencode.turns(rootsOf(request, roots).opencodeDatabase(), request);
    }
    try {
      Optional<Located> located = locate(request, roots);
      return located.isEmpty()
          ? List.of()
          : tails.turns(located.get().source().reader(), located.get().file());
    } catch (UnreadableTranscriptException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      // Whatever a file in the CLI's folders holds or does, the answer is what could be read.
      Log.LOG.debug("transcript of session {} not readable", request.sessionId(), e);
      return List.of();
    }
  }

  /**
   * What the session's CLI recorded of its use: tokens summed over the conversation, the context
   * its last request filled, and the usage limits it was told of. {@link UsageReport#NONE} when its
   * kind has no reader, when the CLI has not written its transcript yet, or when the file cannot be
   * read. The first call reads the file once (at most its last 64 MiB, and then says its sums are
   * partial); later ones read only what was appended since.
   */
  public UsageReport usage(TranscriptRequest request) {
    return usage(request, roots);
  }

  /** As {@link #usage(TranscriptRequest)}, for a CLI that keeps its files under {@code roots}. */
  public UsageReport usage(TranscriptRequest request, TranscriptRoots roots) {
    Objects.requireNonNull(request, "request");
    try {
      if (request.kind().equals(OPENCODE)) {
        return opencode.usage(rootsOf(request, roots).opencodeDatabase(), request);
      }
      Optional<Located> located = locate(request, roots);
      return located.isEmpty()
          ? UsageReport.NONE
          : usageOf(located.get().source().usage(), located.get().file());
    } catch (IOException | RuntimeException e) {
      Log.LOG.debug("usage of session {} not readable", request.sessionId(), e);
      return UsageReport.NONE;
    }
  }

  /** Where the session's CLI keeps its files: as its environment says, else {@code roots}. */
  private static TranscriptRoots rootsOf(TranscriptRequest request, TranscriptRoots roots) {
    return request.environment() == null ? roots : roots.forSession(request.environment());
  }

  /** The session's transcript file, where its environment says, else under {@code roots}. */
  private Optional<Located> locate(TranscriptRequest request, TranscriptRoots roots)
      throws IOException {
    if (!KINDS.contains(request.kind()) || request.kind().equals(OPENCODE)) {
      return Optional.empty(); // opencode's is a database, read apart
    }
    TranscriptRoots where = rootsOf(request, roots);
    Source source = sources(where).get(request.kind());
    Optional<Path> file = source.locator().locate(request);
    if (file.isEmpty() && !where.equals(roots)) {
      // A CLI started by a wrapper that sets its variables without exec: the session's own
      // process does not show them, the engine's roots may still hold the file.
      source = sources(roots).get(request.kind());
      file = source.locator().locate(request);
    }
    Source found = source;
    return file.map(path -> new Located(found, path));
  }

  /** The turns of one known file, read by the reader of {@code kind}; for tests. */
  List<Turn> turnsOf(String kind, Path file) throws IOException {
    return tails.turns(sources(roots).get(kind).reader(), file);
  }

  /** The usage of one known file, read by the usage reader of {@code kind}; for tests. */
  UsageReport usageOf(String kind, Path file) throws IOException {
    return usageOf(sources(roots).get(kind).usage(), file);
  }

  /** The usage a session's file records, its sub-agents' files added. */
  private UsageReport usageOf(UsageReader reader, Path file) throws IOException {
    UsageReport own = usages.report(reader, file);
    if (own.usage() == null) {
      return own;
    }
    SubagentFiles subagents;
    try {
      subagents = reader.subagentFiles(file);
    } catch (IOException e) {
      Log.LOG.debug("sub-agents of {} not listed", file, e);
      return own.plusSubagents(List.of(), true, reader.source());
    }
    if (subagents.files().isEmpty() && !subagents.someLeftOut()) {
      return own;
    }
    List<UsageReport> theirs = new ArrayList<>(subagents.files().size());
    boolean someLeftOut = subagents.someLeftOut();
    for (Path subagent : subagents.files()) {
      try {
        theirs.add(subagentUsages.report(reader, subagent));
      } catch (IOException e) {
        // One sub-agent's file that cannot be read costs its share, and says so: partial.
        Log.LOG.debug("sub-agent file {} not readable", subagent, e);
        someLeftOut = true;
      }
    }
    return own.plusSubagents(theirs, someLeftOut, reader.source());
  }

  /** Every transcript byte read so far (tails, heads and usage); for tests and the benchmark. */
  long bytesRead() {
    return tails.bytesRead().get();
  }
}
