package dev.clique.engine.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * Each usage reader says what pricing its sums needs: whether one model answered them all, the
 * largest request, Claude Code's one-hour cache writes, and whether its CLI keeps cache writes
 * apart from its input.
 */
class CostBasisTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void aClaudeSessionWhoseAnswersCameFromTwoModelsSaysSo() throws Exception {
    UsageReader.Tally tally = new ClaudeUsageReader().tally();
    tally.add(JSON.readTree(claudeAnswer("msg_1", "claude-sonnet-4-5", 10, "")));
    tally.add(JSON.readTree(claudeAnswer("msg_2", "claude-sonnet-4-5", 20, "")));
    CostBasis one = tally.report(false).basis();
    tally.add(JSON.readTree(claudeAnswer("msg_3", "claude-haiku-4-5", 5, "")));
    UsageReport two = tally.report(false);

    assertThat(one).isEqualTo(new CostBasis(true, 20L, null, true));
    assertThat(two.basis().oneModel()).isFalse();
    assertThat(two.basis().largestPrompt()).isEqualTo(20);
    assertThat(two.usage().inputTokens()).as("the sums are still there").isEqualTo(35);
  }

  @Test
  void claudeCodesOneHourCacheWritesAreSummedWhereItsRecordsSplitThem() throws Exception {
    UsageReader.Tally tally = new ClaudeUsageReader().tally();
    tally.add(
        JSON.readTree(
            claudeAnswer(
                "msg_1",
                "claude-sonnet-4-5",
                10,
                ",\"cache_creation\":{\"ephemeral_5m_input_tokens\":0,"
                    + "\"ephemeral_1h_input_tokens\":700}")));
    tally.add(
        JSON.readTree(
            claudeAnswer(
                "msg_2",
                "claude-sonnet-4-5",
                10,
                ",\"cache_creation\":{\"ephemeral_5m_input_tokens\":0,"
                    + "\"ephemeral_1h_input_tokens\":300}")));

    assertThat(tally.report(false).basis().cacheWriteLongTokens()).isEqualTo(1000);
  }

  @Test
  void eachReaderSaysWhetherItsCliKeepsCacheWritesApartFromItsInput() throws Exception {
    assertThat(basisOf(new ClaudeUsageReader(), claudeAnswer("msg_1", "m", 1, "")))
        .isEqualTo(new CostBasis(true, 1L, null, true));
    assertThat(
            basisOf(
                new PiUsageReader(),
                "{\"type\":\"message\",\"message\":{\"role\":\"assistant\",\"model\":\"m\","
                    + "\"usage\":{\"input\":1,\"output\":1,\"cacheRead\":2,\"cacheWrite\":0}}}"))
        .isEqualTo(new CostBasis(true, 3L, null, true));
    assertThat(
            basisOf(
                new CopilotUsageReader(),
                "{\"type\":\"session.usage_record\",\"data\":{\"usage\":{\"model\":\"m\","
                    + "\"inputTokens\":4,\"outputTokens\":1}}}"))
        .isEqualTo(new CostBasis(true, 4L, null, false));
    assertThat(
            basisOf(
                new GeminiUsageReader(),
                "{\"id\":\"m1\",\"type\":\"gemini\",\"model\":\"m\","
                    + "\"tokens\":{\"input\":5,\"output\":1,\"tool\":1}}"))
        .isEqualTo(new CostBasis(true, 6L, null, false));
    assertThat(
            basisOf(
                new QwenUsageReader(),
                "{\"type\":\"assistant\",\"model\":\"m\","
                    + "\"usageMetadata\":{\"promptTokenCount\":7,\"candidatesTokenCount\":1}}"))
        .isEqualTo(new CostBasis(true, 7L, null, false));
  }

  private static CostBasis basisOf(UsageReader reader, String line) throws Exception {
    UsageReader.Tally tally = reader.tally();
    tally.add(JSON.readTree(line));
    return tally.report(false).basis();
  }

  @Test
  void aCodexSessionsLargestRequestIsItsLargestLastTokenUsage() throws Exception {
    UsageReader.Tally tally = new CodexUsageReader().tally();
    tally.add(JSON.readTree("{\"type\":\"turn_context\",\"payload\":{\"model\":\"gpt-5\"}}"));
    tally.add(JSON.readTree(codexCount(100, 5000)));
    tally.add(JSON.readTree(codexCount(300, 2000)));

    CostBasis basis = tally.report(false).basis();
    assertThat(basis).isEqualTo(new CostBasis(true, 5000L, null, false));
  }

  private static String claudeAnswer(String id, String model, int input, String more) {
    return "{\"type\":\"assistant\",\"message\":{\"id\":\""
        + id
        + "\",\"model\":\""
        + model
        + "\",\"usage\":{\"input_tokens\":"
        + input
        + ",\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":0,"
        + "\"output_tokens\":1"
        + more
        + "}}}";
  }

  private static String codexCount(long total, long lastInput) {
    return "{\"type\":\"event_msg\",\"payload\":{\"type\":\"token_count\",\"info\":{"
        + "\"total_token_usage\":{\"input_tokens\":"
        + total
        + ",\"cached_input_tokens\":0,\"output_tokens\":1,\"total_tokens\":"
        + (total + 1)
        + "},\"last_token_usage\":{\"input_tokens\":"
        + lastInput
        + "}}}}";
  }
}
