package dev.clique.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.client.Session;
import dev.clique.client.Usage;
import dev.clique.fake.FakeEngine;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code clique ls} with an engines file: one table of every engine's sessions with an ENGINE
 * column, a line naming each engine that did not answer, and a file others may read refused.
 */
class LsOverSeveralEnginesTest {
  private static final String LAPTOP_TOKEN = "mxp_AAAApQ9rT7vW2xY5aB8cD1eF4gH6iJ0kL3mN5oP7qR9s";
  private static final String DESK_TOKEN = "mxp_DDDDpQ9rT7vW2xY5aB8cD1eF4gH6iJ0kL3mN5oP7qR9s";
  private static final String CLAUDE_ID = "3f2b8c1e-5a47-4d0e-9b6f-2c81d4e7a915";
  private static final String SHELL_ID = "b7e4a0d2-91c3-4f6a-8e25-6d0f3c9a1b48";

  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private final Map<String, String> env = new HashMap<>();
  private Path home;
  private FakeEngine laptop;
  private FakeEngine desk;

  @BeforeEach
  void start() throws IOException {
    laptop = FakeEngine.start().servingTheContract(FakeEngine.ANY);
    desk =
        FakeEngine.start()
            .servingTheContract(FakeEngine.ANY)
            .failEveryRequest(FakeEngine.Fault.UNAUTHORIZED);
    home =
        Files.createDirectory(
            dir.resolve("clique"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    env.put("CLIQUE_HOME", home.toString());
    env.put("CLIQUE_TOKEN_LAPTOP", LAPTOP_TOKEN);
    env.put("CLIQUE_TOKEN_DESK", DESK_TOKEN);
    Environment.use(env);
  }

  @AfterEach
  void stop() {
    Environment.use(System.getenv());
    laptop.close();
    desk.close();
  }

  private Path enginesFile(String mode) throws IOException {
    Path file = home.resolve(EnginesFile.NAME);
    Files.writeString(
        file,
        "[engines.laptop]\nurl = \""
            + laptop.url()
            + "\"\ntoken_env = \"CLIQUE_TOKEN_LAPTOP\"\n\n[engines.desk]\nurl = \""
            + desk.url()
            + "\"\ntoken_env = \"CLIQUE_TOKEN_DESK\"\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
    return file;
  }

  private int run(String... args) {
    CommandLine command = CliqueCommand.commandLine();
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(err, true));
    return command.execute(args);
  }

  @Test
  void theTableHasAnEngineColumnAndALineForTheEngineThatDidNotAnswer() throws Exception {
    enginesFile("rw-------");

    assertThat(run("ls")).as(err.toString()).isZero();

    List<String> lines = out.toString().lines().toList();
    String header = lines.get(0);
    assertThat(header.split("\\s+"))
        .containsExactly(
            "ENGINE", "NAME", "CLI", "STATE", "TOKENS", "CONTEXT", "COST", "WHY", "WHERE", "FOLDER",
            "AGE");
    List<Map<String, String>> rows = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      if (!line.startsWith("engine ")) {
        rows.add(cells(header, line));
      }
    }
    assertThat(rows).hasSize(2);
    assertThat(rows.get(0))
        .containsEntry("ENGINE", "laptop")
        .containsEntry("NAME", "api refactor")
        .containsEntry("CLI", "claude")
        .containsEntry("STATE", "waiting")
        .containsEntry("TOKENS", "111.6k")
        .containsEntry("CONTEXT", "61.9k")
        .containsEntry("COST", "$0.88")
        .containsEntry("WHY", "permission: Edit: src/main/java/shop/OrderService.java")
        .containsEntry("WHERE", "clique")
        .containsEntry("FOLDER", "/home/dev/src/shop-api");
    assertThat(rows.get(0).get("AGE")).matches("\\d+[smhd]");
    assertThat(rows.get(1))
        .containsEntry("ENGINE", "laptop")
        .containsEntry("NAME", "build")
        .containsEntry("CLI", "shell")
        .containsEntry("STATE", "stopped")
        .containsEntry("TOKENS", "-")
        .containsEntry("CONTEXT", "-")
        .containsEntry("COST", "-")
        .containsEntry("WHY", "")
        .containsEntry("FOLDER", "/home/dev/src/shop-web");
    assertThat(lines.get(lines.size() - 1))
        .startsWith("engine desk did not answer: ")
        .contains("401: unauthorized");
    assertThat(lines).filteredOn(line -> line.startsWith("engine ")).hasSize(1);
    assertThat(err.toString()).isEmpty();
    assertThat(out + err.toString()).doesNotContain(LAPTOP_TOKEN).doesNotContain(DESK_TOKEN);
    assertThat(laptop.requestsTo("/api/state")).hasSize(1);
    assertThat(desk.requestsTo("/api/state")).hasSize(1);
  }

  @Test
  void jsonPrintsOnlyTheSessionsOnStdoutAndTheEngineThatDidNotAnswerOnStderr() throws Exception {
    enginesFile("rw-------");

    assertThat(run("ls", "--json")).as(err.toString()).isZero();

    JsonNode sessions = new ObjectMapper().readTree(out.toString());
    assertThat(sessions.isArray()).as(out.toString()).isTrue();
    assertThat(sessions).hasSize(2);
    assertThat(sessions.get(0).path("id").asText()).isEqualTo("laptop:" + CLAUDE_ID);
    assertThat(sessions.get(1).path("id").asText()).isEqualTo("laptop:" + SHELL_ID);
    assertThat(sessions).allSatisfy(s -> assertThat(s.path("engine").asText()).isEqualTo("laptop"));
    assertThat(out.toString()).doesNotContain("desk");
    assertThat(err.toString().lines())
        .singleElement()
        .satisfies(
            line ->
                assertThat(line)
                    .startsWith("clique ls: engine desk did not answer: ")
                    .contains("401: unauthorized"));
    assertThat(out + err.toString()).doesNotContain(LAPTOP_TOKEN).doesNotContain(DESK_TOKEN);
    assertThat(out.toString())
        .as("a time with a fraction as the engine wrote it, never as a double's exponent")
        .contains("\"created\":1767168912.44,")
        .doesNotContainPattern("\\dE\\d");
  }

  @Test
  void tokensAndContextSayWhatEachCliRecordedAndJsonCarriesItWhole() throws Exception {
    ObjectMapper json = new ObjectMapper();
    ObjectNode state = (ObjectNode) json.readTree(FakeEngine.contract("state.json"));
    ((ArrayNode) state.get("sessions"))
        .add(json.readTree(FakeEngine.contract("session-codex.json")));
    laptop.on("/api/state", FakeEngine.json(200, state.toString()));
    enginesFile("rw-------");

    assertThat(run("ls")).as(err.toString()).isZero();

    List<String> lines = out.toString().lines().toList();
    Map<String, String> codex = cells(lines.get(0), lines.get(3));
    // Codex: 7000 fresh input, 0 cache writes and 1100 output; 15000 of a 272000 window.
    assertThat(codex).containsEntry("NAME", "retry fetchUser");
    assertThat(codex)
        .containsEntry("TOKENS", "8.1k")
        .containsEntry("CONTEXT", "6%")
        .as("its model has no price")
        .containsEntry("COST", "-");

    out.getBuffer().setLength(0);
    assertThat(run("ls", "--json")).as(err.toString()).isZero();
    JsonNode listed = json.readTree(out.toString());
    assertThat(listed.at("/2/usage/context_window").asLong()).isEqualTo(272000);
    assertThat(listed.at("/2/limits/windows/0/name").asText()).isEqualTo("primary");
    assertThat(listed.at("/0/usage/cache_read_tokens").asLong()).isEqualTo(1250400);
    assertThat(listed.at("/0/usage/cost_usd_estimate").decimalValue())
        .isEqualByComparingTo("0.882458");
    assertThat(listed.get(1).has("usage")).isFalse();
  }

  @Test
  void whereASessionRunsIsShortAndSaysWhichTerminal() throws Exception {
    ObjectMapper json = new ObjectMapper();
    assertThat(LsCommand.where(json.readTree("null"))).isEqualTo("clique");
    assertThat(
            LsCommand.where(
                json.readTree(
                    "{\"socket\": \"/tmp/tmux-1000/default\", \"session\": \"w\","
                        + " \"window\": 0, \"pane\": \"%3\"}")))
        .isEqualTo("default:%3");
    assertThat(
            LsCommand.where(
                json.readTree(
                    "{\"tty\": \"/dev/pts/3\", \"pid\": 48213, \"terminal\": \"VS Code\"}")))
        .isEqualTo("VS Code pts/3");
    assertThat(LsCommand.where(json.readTree("{\"tty\": \"/dev/pts/7\", \"pid\": 9}")))
        .isEqualTo("pts/7");
    assertThat(LsCommand.where(json.readTree("{\"tty\": null, \"pid\": 4242}")))
        .isEqualTo("pid 4242");
  }

  @Test
  void countsAreShortAndRoundedAsPeopleReadThem() {
    assertThat(LsCommand.count(950)).isEqualTo("950");
    assertThat(LsCommand.count(12_345)).isEqualTo("12.3k");
    assertThat(LsCommand.count(999_999)).isEqualTo("1.0M");
    assertThat(LsCommand.count(1_250_400)).isEqualTo("1.3M");
    assertThat(LsCommand.count(3_400_000_000L)).isEqualTo("3.4G");
    assertThat(LsCommand.context(Optional.empty())).isEqualTo("-");
    assertThat(LsCommand.tokens(Optional.empty())).isEqualTo("-");
    assertThat(LsCommand.context(usage("{}"))).isEqualTo("-");
    assertThat(LsCommand.tokens(usage("{}"))).isEqualTo("-");
    assertThat(LsCommand.context(usage("{\"context_tokens\": 105000, \"context_window\": 258400}")))
        .isEqualTo("41%");
    assertThat(LsCommand.context(usage("{\"context_tokens\": 61877}"))).isEqualTo("61.9k");
    assertThat(
            LsCommand.tokens(
                usage(
                    "{\"input_tokens\": 1200, \"cache_read_tokens\": 900000,"
                        + " \"cache_write_tokens\": 300, \"output_tokens\": 45}")))
        .isEqualTo("1.5k");
    assertThat(LsCommand.cost(usage("{}"))).isEqualTo("-");
    assertThat(LsCommand.cost(usage("{\"cost_usd_estimate\": 12.345}"))).isEqualTo("$12.35");
    assertThat(LsCommand.cost(usage("{\"cost_usd_estimate\": 0.000357}"))).isEqualTo("<$0.01");
    assertThat(LsCommand.cost(usage("{\"cost_usd_estimate\": 0}"))).isEqualTo("$0.00");
  }

  private static Optional<Usage> usage(String json) {
    return Session.fromJson("{\"id\": \"s\", \"usage\": " + json + "}").usage();
  }

  @Test
  void anEnginesFileOthersMayReadIsRefusedSayingHowToMendIt() throws Exception {
    Path file = enginesFile("rw-r--r--");

    assertThat(run("ls")).isEqualTo(1);

    assertThat(err.toString())
        .startsWith("clique ls: ")
        .contains("can be read by others than its owner")
        .contains("chmod 600 " + file);
    assertThat(out.toString()).isEmpty();
    assertThat(laptop.requests).isEmpty();
    assertThat(desk.requests).isEmpty();
  }

  @Test
  void localAsksOnlyThisMachinesEngineAndNoneOfTheFile() throws Exception {
    enginesFile("rw-------");

    assertThat(run("ls", "--local")).isEqualTo(1);

    assertThat(err.toString()).contains("no engine is running for " + home);
    assertThat(laptop.requests).isEmpty();
    assertThat(desk.requests).isEmpty();
  }

  /** A row's cells by the header's column names, each column starting where its name does. */
  private static Map<String, String> cells(String header, String line) {
    List<String> names = List.of(header.split("\\s+"));
    Map<String, String> cells = new HashMap<>();
    int start = 0;
    for (int i = 0; i < names.size(); i++) {
      start = header.indexOf(names.get(i), start);
      int end = i + 1 < names.size() ? header.indexOf(names.get(i + 1), start) : line.length();
      cells.put(
          names.get(i),
          start >= line.length()
              ? ""
              : line.substring(start, Math.min(end, line.length())).strip());
    }
    return cells;
  }
}
