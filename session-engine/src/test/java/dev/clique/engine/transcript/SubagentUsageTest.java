package dev.clique.engine.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Claude Code's sub-agents are billed to their session: the files they write beside its own ({@code
 * <id>/subagents/agent-*.jsonl}) count to its sums, read as its own file is, a running tally each;
 * its turns and its context stay its own conversation's.
 */
class SubagentUsageTest {

  @TempDir Path home;

  private Path session() throws IOException {
    Path file = home.resolve(".claude/projects/-home-dev-app/5f0c9a2e.jsonl");
    Files.createDirectories(file.getParent());
    Files.writeString(
        file,
        Lines.claudeUser("look around")
            + "\n"
            + Lines.claudeAnswer("msg_main1", 1000, 50)
            + "\n"
            + Lines.claudeAnswer("msg_main2", 400, 30)
            + "\n",
        StandardCharsets.UTF_8);
    return file;
  }

  private Path subagent(Path session, String relative, String text) throws IOException {
    Path file = session.resolveSibling("5f0c9a2e").resolve("subagents").resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text, StandardCharsets.UTF_8);
    return file;
  }

  @Test
  void aSubagentsTokensCountToTheSumsNotToTheTurnsOrTheContext() throws IOException {
    Path session = session();
    subagent(
        session,
        "agent-a1.jsonl",
        Lines.claudeSubagentAnswer("a1", "msg_s1", 200, 20)
            + "\n"
            + Lines.claudeSubagentAnswer("a1", "msg_s2", 300, 30)
            + "\n");

    Usage usage = new Transcripts(TestRoots.under(home)).usageOf("claude", session).usage();

    assertThat(usage.inputTokens()).isEqualTo(1000 + 400 + 200 + 300);
    assertThat(usage.outputTokens()).isEqualTo(50 + 30 + 20 + 30);
    assertThat(usage.turns()).isEqualTo(2);
    assertThat(usage.contextTokens()).isEqualTo(400);
    assertThat(usage.partial()).isNull();
  }

  @Test
  void aSubagentsRecordsLeftOutAreSaidInTheSessionsSource() throws IOException {
    Path session = session();
    subagent(
        session,
        "agent-a1.jsonl",
        Lines.claudeSubagentAnswer("a1", "msg_s1", 200, 20)
            + "\n"
            + Lines.claudeSubagentAnswer("a1", "msg_s2", -300, 30)
            + "\n");

    Usage usage = new Transcripts(TestRoots.under(home)).usageOf("claude", session).usage();

    assertThat(usage.inputTokens()).isEqualTo(1000 + 400 + 200);
    assertThat(usage.outputTokens()).isEqualTo(50 + 30 + 20);
    assertThat(usage.source())
        .isEqualTo("claude transcript; left out: 1 record with a negative count");
  }

  @Test
  void aSubagentFileThatGrowsCostsTheBytesItGrewBy() throws IOException {
    Path session = session();
    Path agent =
        subagent(session, "agent-a1.jsonl", Lines.claudeSubagentAnswer("a1", "s1", 200, 20) + "\n");
    Transcripts transcripts = new Transcripts(TestRoots.under(home));
    assertThat(transcripts.usageOf("claude", session).usage().inputTokens()).isEqualTo(1600);
    long before = transcripts.bytesRead();

    String more = Lines.claudeSubagentAnswer("a1", "s2", 70, 7) + "\n";
    Lines.append(agent, more);
    Usage grown = transcripts.usageOf("claude", session).usage();

    assertThat(grown.inputTokens()).isEqualTo(1670);
    assertThat(grown.outputTokens()).isEqualTo(107);
    assertThat(transcripts.bytesRead() - before)
        .as("the sub-agent's appended bytes and the few before them; the session's file unchanged")
        .isLessThanOrEqualTo(more.length() + 2L * UsageFile.ANCHOR_BYTES);
  }

  @Test
  void aSubagentThatStartsLaterIsCountedFromItsFirstLine() throws IOException {
    Path session = session();
    Transcripts transcripts = new Transcripts(TestRoots.under(home));
    assertThat(transcripts.usageOf("claude", session).usage().inputTokens()).isEqualTo(1400);

    subagent(
        session,
        "workflows/run-1/agent-w1.jsonl",
        Lines.claudeSubagentAnswer("w1", "w", 5, 1) + "\n");

    assertThat(transcripts.usageOf("claude", session).usage().inputTokens()).isEqualTo(1405);
  }

  @Test
  void filesThatAreNotASubagentsTranscriptAreNotRead() throws IOException {
    Path session = session();
    String answer = Lines.claudeSubagentAnswer("x", "x", 999, 9) + "\n";
    subagent(session, "notes.jsonl", answer);
    subagent(session, "agent-x.json", answer);
    Path elsewhere = home.resolve("elsewhere/agent-x.jsonl");
    Files.createDirectories(elsewhere.getParent());
    Files.writeString(elsewhere, answer);
    Path link = session.resolveSibling("5f0c9a2e").resolve("subagents").resolve("agent-link.jsonl");
    Files.createSymbolicLink(link, elsewhere);

    Usage usage = new Transcripts(TestRoots.under(home)).usageOf("claude", session).usage();

    assertThat(usage.inputTokens()).as("the session's own tokens only").isEqualTo(1400);
  }

  @Test
  void aLinkInPlaceOfTheSubagentsFolderIsNotFollowed() throws IOException {
    Path session = session();
    Path elsewhere = home.resolve("elsewhere");
    Files.createDirectories(elsewhere);
    Files.writeString(
        elsewhere.resolve("agent-x.jsonl"), Lines.claudeSubagentAnswer("x", "x", 999, 9) + "\n");
    Files.createDirectories(session.resolveSibling("5f0c9a2e"));
    Files.createSymbolicLink(session.resolveSibling("5f0c9a2e").resolve("subagents"), elsewhere);

    Usage usage = new Transcripts(TestRoots.under(home)).usageOf("claude", session).usage();

    assertThat(usage.inputTokens()).isEqualTo(1400);
  }

  @Test
  void moreSubagentsThanAreReadGiveTheNewestAndSayTheSumsArePartial() throws IOException {
    Path session = session();
    int count = ClaudeSubagents.MAX_FILES + 1;
    Instant old = Instant.parse("2026-01-01T00:00:00Z");
    for (int i = 0; i < count; i++) {
      Path agent =
          subagent(
              session,
              "agent-a" + i + ".jsonl",
              Lines.claudeSubagentAnswer("a" + i, "s" + i, i == 0 ? 1_000_000 : 1, 1) + "\n");
      // the first written is the oldest: the one left out
      Files.setLastModifiedTime(agent, FileTime.from(old.plusSeconds(i)));
    }

    Usage usage = new Transcripts(TestRoots.under(home)).usageOf("claude", session).usage();

    assertThat(usage.inputTokens()).isEqualTo(1400 + ClaudeSubagents.MAX_FILES);
    assertThat(usage.partial()).isTrue();
  }

  @Test
  void aSessionWithoutSubagentsReadsOnlyItsOwnFile() throws IOException {
    Path session = session();
    Transcripts transcripts = new Transcripts(TestRoots.under(home));

    Usage usage = transcripts.usageOf("claude", session).usage();

    assertThat(usage.inputTokens()).isEqualTo(1400);
    assertThat(transcripts.bytesRead())
        .isLessThanOrEqualTo(Files.size(session) + UsageFile.ANCHOR_BYTES);
  }
}
