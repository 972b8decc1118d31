package dev.clique.engine.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.json.EngineJson;
import dev.clique.engine.transcript.Limits;
import dev.clique.engine.transcript.Usage;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code ?usage=brief}: the two figures a list shows of a session's usage, and no limits. */
class BriefUsageTest {
  private static final ObjectMapper JSON = EngineJson.mapper();

  private static JsonNode brief(Object value) throws Exception {
    return JSON.readTree(BriefUsage.MAPPER.writeValueAsString(value));
  }

  private static JsonNode full(Object value) throws Exception {
    return JSON.readTree(JSON.writeValueAsString(value));
  }

  private static Usage usage(Long input, Long cacheWrite, Long output, Long context, Long window) {
    return new Usage(
        "gpt-5", input, output, 900L, cacheWrite, 7L, 4L, context, window, "codex rollout", false);
  }

  @Test
  void tokensAreInputCacheWritesAndOutputAndTheContextIsAPercentOfItsWindow() throws Exception {
    assertThat(brief(usage(1_000L, 200L, 30L, 50_000L, 200_000L)))
        .isEqualTo(JSON.readTree("{\"tokens\":1230,\"context_percent\":25}"));
  }

  @Test
  void aWindowNotRecordedGivesTheContextsTokensAndACountNotRecordedIsLeftOut() throws Exception {
    assertThat(brief(usage(1_000L, null, 30L, 50_000L, null)))
        .isEqualTo(JSON.readTree("{\"tokens\":1030,\"context_tokens\":50000}"));
    assertThat(brief(usage(null, null, null, null, null))).isEqualTo(JSON.readTree("{}"));
  }

  @Test
  void aRowKeepsEverythingButItsLimitsAndTheFullUsage() throws Exception {
    Limits limits =
        new Limits(
            List.of(new Limits.Window("primary", 15.5, 300L, 1767184200L)),
            1767171190.1,
            "codex rollout");
    SessionView row =
        new SessionView(
            "0123456789abcdef",
            "fix",
            "codex",
            "Codex",
            "0.130.0",
            "/w",
            "w",
            "w",
            "",
            1767171190.5,
            true,
            false,
            "codex",
            1767171200.5,
            200,
            50,
            false,
            "",
            "",
            "idle",
            4096,
            "main",
            0,
            null,
            null,
            null,
            null,
            null,
            List.of(),
            usage(1_000L, 0L, 30L, 50_000L, 200_000L),
            limits);

    JsonNode full = full(row);
    JsonNode listed = brief(row);
    assertThat(listed.has("limits")).isFalse();
    assertThat(listed.get("usage")).isEqualTo(brief(row.usage()));
    SessionList sessions = new SessionList(List.of(row), JSON.writeValueAsString(List.of(row)));
    assertThat(JSON.readTree(JSON.writeValueAsString(sessions)).get(0)).isEqualTo(full(row));
    assertThat(JSON.readTree(JSON.writeValueAsString(sessions.inBrief())).get(0))
        .as("the list in brief, as the state writes it")
        .isEqualTo(listed);
    assertThat(sessions.inBrief()).isSameAs(sessions.inBrief()).containsExactly(row);
    ((com.fasterxml.jackson.databind.node.ObjectNode) full).remove(List.of("usage", "limits"));
    ((com.fasterxml.jackson.databind.node.ObjectNode) listed).remove("usage");
    assertThat(listed).as("the rest of the row").isEqualTo(full);
  }
}
