package dev.clique.engine.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliCatalogueTest {
  @TempDir Path dir;

  private CliCatalogue load(Path override) {
    return CliCatalogue.load(
        override, Map.of("PATH", System.getenv("PATH"), "HOME", dir.toString()));
  }

  @Test
  void theBundledCatalogueKnowsTheUsualCLIs() {
    CliCatalogue catalogue = load(null);
    assertThat(catalogue.all())
        .extracting(CliDefinition::id)
        .contains(
            "claude", "codex", "gemini", "grok", "opencode", "aider", "copilot", "goose", "shell");
    assertThat(catalogue.find("claude").orElseThrow().hasModes()).isTrue();
    assertThat(catalogue.find("grok").orElseThrow().hasModes()).isFalse();
    assertThat(catalogue.find("claude").orElseThrow().transcript()).isEqualTo("claude");
    assertThat(catalogue.find("shell").orElseThrow().transcript()).isEmpty();
  }

  @Test
  void claudeIsLaunchedWithOurSessionIdItsHooksAndAResolvedBinary() {
    CliDefinition claude = load(null).find("claude").orElseThrow();
    List<String> argv =
        claude.launchArgv(
            Path.of("/opt/bin/claude"),
            Map.of("id", "abc", "mode", "", "hook_settings", "{\"hooks\":{}}"),
            false);
    assertThat(argv)
        .containsExactly("/opt/bin/claude", "--session-id", "abc", "--settings", "{\"hooks\":{}}");
    assertThat(claude.hooks()).isEqualTo("claude");
  }

  @Test
  void theShellIsInstalledAndAMissingBinaryIsNot() throws Exception {
    Files.writeString(
        dir.resolve("clis.toml"), "[cli.nope]\ncommand = \"definitely-not-here-9x\"\n");
    CliCatalogue catalogue = load(dir.resolve("clis.toml"));
    CliDefinition shell = catalogue.find("shell").orElseThrow();
    assertThat(catalogue.resolve(shell)).hasValueSatisfying(p -> assertThat(p).isAbsolute());
    assertThat(catalogue.installed(catalogue.find("nope").orElseThrow())).isFalse();
  }

  @Test
  void installedIsAnsweredFromTheLastLookUpUntilTheNextOne() throws Exception {
    Path bin = java.nio.file.Files.createDirectories(dir.resolve("bin"));
    Files.writeString(dir.resolve("clis.toml"), "[cli.late]\ncommand = \"late-cli-9x\"\n");
    CliCatalogue catalogue =
        CliCatalogue.load(dir.resolve("clis.toml"), Map.of("PATH", bin.toString(), "HOME", "/"));
    CliDefinition late = catalogue.find("late").orElseThrow();
    assertThat(catalogue.installed(late)).isFalse();
    Path binary = Files.writeString(bin.resolve("late-cli-9x"), "#!/bin/sh\n");
    binary.toFile().setExecutable(true);
    assertThat(catalogue.installed(late)).as("not looked up again yet").isFalse();
    assertThat(catalogue.resolve(late)).as("starting one looks afresh").isPresent();
    catalogue.refreshInstalled();
    assertThat(catalogue.installed(late)).isTrue();
  }

  @Test
  void anOverrideChangesOneEntryAndKeepsTheRest() throws Exception {
    Files.writeString(dir.resolve("clis.toml"), "[cli.shell]\nargs = [\"--norc\"]\n");
    CliCatalogue catalogue = load(dir.resolve("clis.toml"));
    CliDefinition shell = catalogue.find("shell").orElseThrow();
    assertThat(shell.args()).containsExactly("--norc");
    assertThat(shell.command()).isEqualTo("bash");
    assertThat(catalogue.find("claude")).isPresent();
  }

  @Test
  void aBrokenOverrideIsIgnoredNotFatal() throws Exception {
    Files.writeString(dir.resolve("clis.toml"), "[cli.shell\nthis is not toml");
    assertThat(load(dir.resolve("clis.toml")).find("shell")).isPresent();
  }

  private static List<String> names(List<GenericQuestions.Named> patterns) {
    return patterns.stream().map(GenericQuestions.Named::name).toList();
  }

  @Test
  void theBundledGenericQuestionsAreNamedAndEveryCliReadsThem() {
    CliCatalogue catalogue = load(null);
    GenericQuestions generic = GenericQuestions.bundled();
    assertThat(names(generic.questions()))
        .containsExactly("yes-no", "do-you-want", "would-you-like", "press-enter", "allow");
    assertThat(names(generic.choices())).containsExactly("menu");
    assertThat(names(generic.lastLineQuestions())).containsExactly("short-question");
    assertThat(catalogue.all()).allSatisfy(cli -> assertThat(cli.generic()).isEqualTo(generic));
    assertThat(catalogue.problems()).isEmpty();
  }

  @Test
  void anOverrideAddsReplacesAndTurnsOffGenericQuestionsByName() throws Exception {
    Files.writeString(
        dir.resolve("clis.toml"),
        """
        [generic.questions]
        yes-no = '\\[yes/no\\]$'
        allow = ""
        proceed = '^Proceed\\?$'
        """);
    CliCatalogue catalogue = load(dir.resolve("clis.toml"));
    GenericQuestions generic = catalogue.find("shell").orElseThrow().generic();
    assertThat(names(generic.questions()))
        .containsExactly("yes-no", "do-you-want", "would-you-like", "press-enter", "proceed");
    assertThat(generic.questions().get(0).pattern().pattern()).isEqualTo("\\[yes/no\\]$");
    assertThat(names(generic.lastLineQuestions())).containsExactly("short-question");
    assertThat(catalogue.find("claude").orElseThrow().generic()).isEqualTo(generic);
    assertThat(catalogue.problems()).isEmpty();
  }

  @Test
  void aBrokenGenericPatternIsRefusedWithItsFileAndLineAndTheBundledOneStays() throws Exception {
    Path file = dir.resolve("clis.toml");
    Files.writeString(
        file,
        """
        # mine
        [generic.questions]
        yes-no = '(y/n'
        fine = 'Fine\\?$'

        [generic.last_line_questions]
        "short-question" = '*?'
        """);
    CliCatalogue catalogue = load(file);
    GenericQuestions generic = catalogue.find("shell").orElseThrow().generic();
    assertThat(generic.questions().get(0))
        .as("the bundled yes-no stays")
        .isEqualTo(GenericQuestions.bundled().questions().get(0));
    assertThat(names(generic.questions())).endsWith("fine");
    assertThat(generic.lastLineQuestions())
        .isEqualTo(GenericQuestions.bundled().lastLineQuestions());
    assertThat(catalogue.problems())
        .hasSize(2)
        .anySatisfy(
            problem ->
                assertThat(problem)
                    .contains("generic.questions.yes-no")
                    .contains(file + " line 3")
                    .contains("Unclosed group")
                    .contains("the bundled one stays"))
        .anySatisfy(
            problem ->
                assertThat(problem)
                    .contains("generic.last_line_questions.short-question")
                    .contains(file + " line 7"));
  }

  @Test
  void aBrokenPatternOfACliIsRefusedWithItsFileAndLine() throws Exception {
    Path file = dir.resolve("clis.toml");
    Files.writeString(file, "[cli.shell]\nargs = []\nerrors = [\"fine\", \"(broken\"]\n");
    CliCatalogue catalogue = load(file);
    assertThat(catalogue.find("shell").orElseThrow().errors())
        .extracting(Pattern::pattern)
        .containsExactly("fine");
    assertThat(catalogue.problems())
        .singleElement()
        .asString()
        .contains("errors pattern of CLI shell")
        .contains(file + " line 3");
  }
}
