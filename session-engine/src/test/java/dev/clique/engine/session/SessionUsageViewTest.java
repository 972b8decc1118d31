package dev.clique.engine.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.catalogue.CliCatalogue;
import dev.clique.engine.catalogue.PriceTable;
import dev.clique.engine.json.EngineJson;
import dev.clique.engine.testing.FakeTmux;
import dev.clique.engine.testing.MutableClock;
import dev.clique.engine.token.TokenStore;
import dev.clique.engine.transcript.TranscriptRoots;
import dev.clique.engine.transcript.Transcripts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session's view carries what its CLI recorded of its use, read from its transcript with the
 * other slow facts; a session whose CLI records nothing has neither key.
 */
class SessionUsageViewTest {
  private static final ObjectMapper JSON = EngineJson.mapper();

  @TempDir Path dir;
  private final MutableClock clock = MutableClock.start();
  private final FakeTmux tmux = new FakeTmux(clock);
  private SessionService service;

  @BeforeEach
  void service() throws Exception {
    // An agent that writes Claude Code's transcripts: bash under another name.
    Files.writeString(
        dir.resolve("clis.toml"),
        "[cli.agent]\nlabel = \"Agent\"\ncommand = \"bash\"\ntranscript = \"claude\"\n");
    CliCatalogue catalogue =
        CliCatalogue.load(
            dir.resolve("clis.toml"),
            Map.of("PATH", System.getenv("PATH"), "HOME", dir.toString()));
    TranscriptRoots roots =
        new TranscriptRoots(
            dir.resolve(".claude"),
            dir.resolve(".codex"),
            dir.resolve(".gemini"),
            dir.resolve(".qwen"),
            dir.resolve(".copilot"),
            dir.resolve(".pi/agent"),
            dir.resolve(".local/share/opencode/opencode.db"));
    service =
        SessionService.builder()
            .store(SessionStore.open(dir.resolve("state.json")))
            .tmux(tmux)
            .catalogue(catalogue)
            .tokens(TokenStore.inMemory(clock))
            .clock(clock)
            .engineUrl(() -> "http://127.0.0.1:3200")
            .usage(new SessionUsage(new Transcripts(roots), dir, PriceTable.bundled()))
            .build();
  }

  @AfterEach
  void close() {
    service.close();
  }

  @Test
  void theViewCarriesTheUsageTheTranscriptRecordsAndAShellNone() throws Exception {
    Path work = Files.createDirectories(dir.resolve("work"));
    String agent = service.create(new NewSession("agent", work.toString(), "a", null)).id();
    String shell = service.create(new NewSession("shell", work.toString(), "s", null)).id();
    Path transcript =
        dir.resolve(".claude/projects/" + work.toString().replaceAll("[^A-Za-z0-9]", "-"))
            .resolve(agent + ".jsonl");
    Files.createDirectories(transcript.getParent());
    Files.writeString(
        transcript,
        "{\"type\":\"assistant\",\"message\":{\"id\":\"msg_1\",\"model\":\"claude-opus-5-5\","
            + "\"usage\":{\"input_tokens\":100,\"cache_creation_input_tokens\":0,"
            + "\"cache_read_input_tokens\":400,\"output_tokens\":20}}}\n",
        StandardCharsets.UTF_8);
    service.watcher().tick();
    service.gatherFactsNow();

    SessionView view = service.session(agent).orElseThrow();
    assertThat(view.usage()).isNotNull();
    assertThat(view.usage().inputTokens()).isEqualTo(100);
    assertThat(view.usage().contextTokens()).isEqualTo(500);
    assertThat(view.limits()).isNull();
    String json = JSON.writeValueAsString(view);
    assertThat(json).contains("\"usage\":{\"model\":\"claude-opus-5-5\",\"input_tokens\":100");
    assertThat(json).doesNotContain("\"limits\"");
    assertThat(JSON.writeValueAsString(service.session(shell).orElseThrow()))
        .doesNotContain("\"usage\"")
        .doesNotContain("\"limits\"");
  }

  @Test
  void theUsageOfAModelWithPricesCarriesItsEstimateAndOfOneWithoutNone() throws Exception {
    Path work = Files.createDirectories(dir.resolve("work"));
    String priced = service.create(new NewSession("agent", work.toString(), "p", null)).id();
    String unpriced = service.create(new NewSession("agent", work.toString(), "u", null)).id();
    writeTranscript(work, priced, "claude-haiku-4-5-20251001");
    writeTranscript(work, unpriced, "claude-opus-5-5");
    service.watcher().tick();
    service.gatherFactsNow();

    // 100 × $1 + 400 × $0.10 + 20 × $5 per million
    assertThat(JSON.writeValueAsString(service.session(priced).orElseThrow()))
        .contains("\"source\":\"claude transcript\",\"cost_usd_estimate\":0.00024}");
    assertThat(service.session(unpriced).orElseThrow().usage().costUsdEstimate()).isNull();
    assertThat(JSON.writeValueAsString(service.session(unpriced).orElseThrow()))
        .contains("\"usage\"")
        .doesNotContain("cost_usd_estimate");
  }

  private void writeTranscript(Path work, String session, String model) throws Exception {
    Path transcript =
        dir.resolve(".claude/projects/" + work.toString().replaceAll("[^A-Za-z0-9]", "-"))
            .resolve(session + ".jsonl");
    Files.createDirectories(transcript.getParent());
    Files.writeString(
        transcript,
        "{\"type\":\"assistant\",\"message\":{\"id\":\"msg_1\",\"model\":\""
            + model
            + "\",\"usage\":{\"input_tokens\":100,\"cache_creation_input_tokens\":0,"
            + "\"cache_read_input_tokens\":400,\"output_tokens\":20}}}\n",
        StandardCharsets.UTF_8);
  }
}
