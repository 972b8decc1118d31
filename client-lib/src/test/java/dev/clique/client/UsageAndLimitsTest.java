package dev.clique.client;

import static dev.clique.client.Fixtures.CLAUDE_ID;
import static dev.clique.client.Fixtures.SHELL_ID;
import static dev.clique.client.Fixtures.contract;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * A session's usage and limits read as the engine sends them: each count present only when the CLI
 * records it, the whole of each absent for a session whose CLI records none.
 */
class UsageAndLimitsTest {

  @Test
  void aClaudeSessionHasItsUsageButNoContextWindowAndNoLimits() {
    Session claude = EngineState.fromJson(contract("state.json")).session(CLAUDE_ID).orElseThrow();

    Usage usage = claude.usage().orElseThrow();
    assertThat(usage.model()).hasValue("claude-sonnet-4-5-20250929");
    assertThat(usage.inputTokens()).hasValue(18250);
    assertThat(usage.outputTokens()).hasValue(9120);
    assertThat(usage.cacheReadTokens()).hasValue(1250400);
    assertThat(usage.cacheWriteTokens()).hasValue(84210);
    assertThat(usage.reasoningTokens()).hasValue(2310);
    assertThat(usage.turns()).hasValue(42);
    assertThat(usage.contextTokens()).hasValue(61877);
    assertThat(usage.contextWindow()).isEmpty();
    assertThat(usage.contextPercent()).isEmpty();
    assertThat(usage.tokens()).as("input, cache writes and output").hasValue(18250 + 84210 + 9120);
    assertThat(usage.source()).isEqualTo("claude transcript");
    assertThat(usage.partial()).isFalse();
    assertThat(usage.costUsdEstimate()).hasValue(0.882458);
    assertThat(claude.limits()).isEmpty();
  }

  @Test
  void aUsageWithoutAnEstimateHasAnEmptyOneNotZero() {
    Usage codex = Session.fromJson(contract("session-codex.json")).usage().orElseThrow();

    assertThat(codex.costUsdEstimate()).isEmpty();
    assertThat(codex.toString()).doesNotContain("costUsd");
    Usage priced =
        Session.fromJson(
                "{\"id\": \"c\", \"usage\": {\"input_tokens\": 1, \"cost_usd_estimate\": 0.000003}}")
            .usage()
            .orElseThrow();
    assertThat(priced.costUsdEstimate()).hasValue(0.000003);
    assertThat(priced.toString()).contains("costUsd=3.0E-6");
    assertThat(priced)
        .isNotEqualTo(
            Session.fromJson("{\"id\": \"c\", \"usage\": {\"input_tokens\": 1}}")
                .usage()
                .orElseThrow());
  }

  @Test
  void aCodexSessionHasItsContextWindowAndItsAccountsLimits() {
    Session codex = Session.fromJson(contract("session-codex.json"));

    Usage usage = codex.usage().orElseThrow();
    assertThat(usage.contextWindow()).hasValue(272000);
    assertThat(usage.contextPercent()).hasValueSatisfying(p -> assertThat(p).isBetween(5.5, 5.6));
    Limits limits = codex.limits().orElseThrow();
    assertThat(limits.windows()).hasSize(2);
    Limits.Window primary = limits.window("primary").orElseThrow();
    assertThat(primary.usedPercent()).isEqualTo(15.5);
    assertThat(primary.windowMinutes()).isEqualTo(OptionalLong.of(300));
    assertThat(primary.resetsAt()).hasValue(Instant.ofEpochSecond(1767184200));
    assertThat(limits.window("secondary").orElseThrow().usedPercent()).isEqualTo(4.0);
    assertThat(limits.asOf()).hasValue(Instant.parse("2025-12-31T08:53:10.100Z"));
    assertThat(limits.source()).isEqualTo("codex rollout");
    assertThat(codex.toString()).contains("usage=Usage[model=gpt-6-codex").contains("limits=");
  }

  @Test
  void aSessionWhoseCliRecordsNothingHasNeither() {
    Session shell = EngineState.fromJson(contract("state.json")).session(SHELL_ID).orElseThrow();
    assertThat(shell.usage()).isEmpty();
    assertThat(shell.limits()).isEmpty();
    Session nulls =
        Session.fromJson("{\"id\": \"s\", \"usage\": null, \"limits\": null, \"state\": \"idle\"}");
    assertThat(nulls.usage()).isEmpty();
    assertThat(nulls.limits()).isEmpty();
  }

  @Test
  void countsTheEngineLeftOutAreEmptyNotZero() {
    Session gemini =
        Session.fromJson(
            "{\"id\": \"g\", \"usage\": {\"input_tokens\": 10, \"output_tokens\": 5,"
                + " \"partial\": true}}");
    Usage usage = gemini.usage().orElseThrow();
    assertThat(usage.inputTokens()).hasValue(10);
    assertThat(usage.cacheWriteTokens()).isEmpty();
    assertThat(usage.model()).isEmpty();
    assertThat(usage.partial()).isTrue();
    assertThat(usage.source()).isEmpty();
    assertThat(usage).isEqualTo(Session.fromJson(gemini.json()).usage().orElseThrow());
  }

  @Test
  void usageOfTheWrongShapeIsRefusedSayingWhere() {
    assertThatThrownBy(() -> Session.fromJson("{\"id\": \"s\", \"usage\": 3}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("\"usage\" is not an object in session s");
    assertThatThrownBy(
            () -> Session.fromJson("{\"id\": \"s\", \"usage\": {\"input_tokens\": \"many\"}}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("\"input_tokens\" is not a whole number in the usage of session s");
    assertThatThrownBy(
            () ->
                Session.fromJson("{\"id\": \"s\", \"usage\": {\"cost_usd_estimate\": \"cheap\"}}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("\"cost_usd_estimate\" is not a number in the usage of session s");
    assertThatThrownBy(
            () ->
                Session.fromJson(
                    "{\"id\": \"s\", \"limits\": {\"windows\": [{\"used_percent\": 1}]}}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("\"name\" is missing in a limit window of session s");
  }
}
