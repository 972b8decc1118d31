package dev.clique.engine.http;

import static dev.clique.engine.testing.JsonShapes.assertSameShape;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.catalogue.CostEstimate;
import dev.clique.engine.catalogue.PriceTable;
import dev.clique.engine.json.EngineJson;
import dev.clique.engine.session.SessionView;
import dev.clique.engine.transcript.CostBasis;
import dev.clique.engine.transcript.Limits;
import dev.clique.engine.transcript.Usage;
import dev.clique.engine.transcript.UsageReport;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A session's {@code usage} and {@code limits} are written with the contract's keys and number
 * shapes (a live engine's sessions are shells in {@link ContractIT}, whose CLI records none), and a
 * count the CLI does not record is left out, never written as 0 or null.
 */
class UsageWireShapeTest {
  private static final ObjectMapper JSON = EngineJson.mapper();
  private static final Path CONTRACT = Path.of("..", "contract");

  private static JsonNode contract(String file) throws Exception {
    return new ObjectMapper().readTree(CONTRACT.resolve(file).toFile());
  }

  private static JsonNode written(Object value) throws Exception {
    return JSON.readTree(JSON.writeValueAsString(value));
  }

  @Test
  void aUsageLimitsAttentionHasTheContractsShapeAndItsResetOnlyWhereTheCliSaidIt()
      throws Exception {
    JsonNode contract = contract("session-usage-limit.json").get("attention");
    SessionView.AttentionView limited =
        new SessionView.AttentionView(
            "usage_limit",
            contract.get("detail").asText(),
            1767171201.4,
            Instant.ofEpochSecond(1767185520).toString());
    assertThat(written(limited)).isEqualTo(contract);
    SessionView.AttentionView asked =
        new SessionView.AttentionView("permission", "Bash: ls", 1767171201.4, null);
    assertThat(written(asked).has("resets_at")).as("no time the CLI did not say").isFalse();
    assertSameShape(
        "attention", contract("state.json").at("/sessions/0/attention"), written(asked));
  }

  @Test
  void aClaudeSessionsUsageHasTheContractsShape() throws Exception {
    Usage usage =
        new Usage(
            "claude-sonnet-4-5",
            300L,
            60L,
            0L,
            0L,
            0L,
            3L,
            100L,
            null,
            "claude transcript",
            false,
            0.00039);

    assertSameShape("usage", contract("state.json").at("/sessions/0/usage"), written(usage));
  }

  @Test
  void theContractsEstimateIsTheBundledPricesOfItsCounts() throws Exception {
    JsonNode row = contract("state.json").at("/sessions/0/usage");
    Usage usage =
        new Usage(
            row.get("model").asText(),
            row.get("input_tokens").asLong(),
            row.get("output_tokens").asLong(),
            row.get("cache_read_tokens").asLong(),
            row.get("cache_write_tokens").asLong(),
            row.get("reasoning_tokens").asLong(),
            row.get("turns").asLong(),
            row.get("context_tokens").asLong(),
            null,
            row.get("source").asText(),
            false);
    CostBasis basis = new CostBasis(true, row.get("context_tokens").asLong(), null, true);

    UsageReport priced =
        CostEstimate.priced(new UsageReport(usage, null, basis), PriceTable.bundled());

    assertThat(written(priced.usage())).isEqualTo(row);
    assertThat(JSON.writeValueAsString(priced.usage()))
        .as("a plain decimal, never an exponent")
        .contains("\"cost_usd_estimate\":0.882458}");
  }

  @Test
  void aCodexSessionsUsageAndLimitsHaveTheContractsShape() throws Exception {
    JsonNode codex = contract("session-codex.json");
    Usage usage =
        new Usage(
            "gpt-6-codex",
            7000L,
            1100L,
            20000L,
            0L,
            450L,
            2L,
            15000L,
            272000L,
            "codex rollout",
            null);
    Limits limits =
        new Limits(
            List.of(
                new Limits.Window("primary", 15.5, 300L, 1767184200L),
                new Limits.Window("secondary", 4, 10080L, 1767600000L)),
            1767171190.1,
            "codex rollout");

    assertSameShape("usage", codex.get("usage"), written(usage));
    assertSameShape("limits", codex.get("limits"), written(limits));
    assertThat(JSON.writeValueAsString(limits))
        .as("percentages and times in the engine's one number policy")
        .contains("\"used_percent\":15.5", "\"used_percent\":4,", "\"as_of\":1767171190.1");
  }

  @Test
  void whatTheCliDoesNotRecordIsLeftOut() throws Exception {
    Usage gemini = new Usage(null, 10L, 5L, null, null, null, 1L, 10L, null, "gemini chat", false);

    assertThat(JSON.writeValueAsString(gemini))
        .isEqualTo(
            "{\"input_tokens\":10,\"output_tokens\":5,\"turns\":1,\"context_tokens\":10,"
                + "\"source\":\"gemini chat\"}");
    assertThat(JSON.writeValueAsString(withPartial()))
        .endsWith("\"source\":\"claude transcript\",\"partial\":true}");
  }

  private static Usage withPartial() {
    return new Usage(null, 1L, 1L, null, null, null, 1L, null, null, "claude transcript", true);
  }
}
