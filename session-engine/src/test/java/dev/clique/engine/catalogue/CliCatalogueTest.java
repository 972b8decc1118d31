package dev.clique.engine.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
  void claudeIsLaunchedWithOurSessionIdAndAResolvedBinary() {
    CliDefinition claude = load(null).find("claude").orElseThrow();
    List<String> argv =
        claude.launchArgv(Path.of("/opt/bin/claude"), Map.of("id", "abc", "mode", ""), false);
    assertThat(argv).containsExactly("/opt/bin/claude", "--session-id", "abc");
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
}
