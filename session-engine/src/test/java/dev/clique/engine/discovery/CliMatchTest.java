package dev.clique.engine.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clique.engine.catalogue.CliCatalogue;
import dev.clique.engine.catalogue.CliDefinition;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CliMatchTest {
  private final CliCatalogue catalogue =
      CliCatalogue.load(null, Map.of("PATH", "/usr/bin:/bin", "HOME", "/home/dev"));

  private Optional<String> match(String executable, String... argv) {
    return CliMatch.of(List.of(argv), executable, catalogue).map(CliDefinition::id);
  }

  @Test
  void claudeCodeIsKnownByItsNameOrByTheBinaryOfItsPlatformPackage() {
    assertThat(match("/home/dev/.local/bin/claude", "claude", "--resume", "x")).hasValue("claude");
    assertThat(
            match(
                "/usr/lib/node_modules/@anthropic-ai/claude-code-linux-x64/claude",
                "/usr/lib/node_modules/@anthropic-ai/claude-code/bin/claude.exe"))
        .hasValue("claude");
    assertThat(
            match(
                "/usr/bin/node",
                "node",
                "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js",
                "--continue"))
        .hasValue("claude");
  }

  @Test
  void codexAndGeminiAreKnownByTheScriptOfTheirPackageUnderNode() {
    assertThat(
            match(
                "/usr/bin/node",
                "node",
                "--no-warnings",
                "/home/dev/.npm-global/lib/node_modules/@openai/codex/bin/codex.js"))
        .hasValue("codex");
    assertThat(
            match(
                "/home/dev/.npm-global/lib/node_modules/@openai/codex-linux-x64/vendor/x86_64/codex/codex",
                "/home/dev/.npm-global/lib/node_modules/@openai/codex-linux-x64/vendor/x86_64/codex/codex"))
        .hasValue("codex");
    assertThat(
            match(
                "/usr/bin/node",
                "/usr/bin/node",
                "/usr/lib/node_modules/@google/gemini-cli/bundle/gemini.js"))
        .hasValue("gemini");
  }

  /** Qwen Code's bin link, and the child it re-executes itself as, with node's options. */
  @Test
  void qwenCodeIsKnownByItsBinLinkAndByItsPackage() {
    assertThat(match("/usr/bin/node", "node", "/usr/lib/node_modules/.bin/qwen", "--session-id"))
        .hasValue("qwen");
    assertThat(
            match(
                "/usr/bin/node",
                "/usr/bin/node",
                "--max-old-space-size=8192",
                "/usr/lib/node_modules/@qwen-code/qwen-code/cli-entry.js"))
        .hasValue("qwen");
  }

  @Test
  void piIsKnownByTheNameItGivesItsProcessOrByItsPackage() {
    // pi 1.6.0 renames its process and blanks its arguments: /proc shows "pi" and empty strings.
    assertThat(match("/opt/node-22/bin/node", "pi", "", "", "")).hasValue("pi");
    assertThat(
            match(
                "/usr/bin/node",
                "node",
                "/usr/lib/node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js"))
        .hasValue("pi");
    assertThat(
            match(
                "/usr/bin/node",
                "node",
                "/usr/lib/node_modules/@mariozechner/pi-coding-agent/dist/cli.js"))
        .as("its former package")
        .hasValue("pi");
  }

  @Test
  void opencodeIsKnownByTheNativeBinaryItsPackagePutInPlace() {
    assertThat(
            match(
                "/usr/lib/node_modules/opencode-ai/bin/opencode.exe",
                "/usr/bin/opencode",
                "-s",
                "ses_dc935c8e6ffe6FSo3ex0MmaPzA"))
        .hasValue("opencode");
    assertThat(match("/home/dev/.opencode/bin/opencode", "opencode")).hasValue("opencode");
  }

  @Test
  void aPythonScriptNamedLikeACliIsThatCli() {
    assertThat(match("/usr/bin/python3.12", "python3", "/home/dev/.local/bin/aider"))
        .hasValue("aider");
    assertThat(match("/usr/bin/python3.12", "/usr/bin/python3", "-u", "/home/dev/bin/claude"))
        .hasValue("claude");
  }

  @Test
  void programsThatOnlyMentionACliAreNone() {
    assertThat(match("/usr/bin/vim", "vim", "claude.md")).isEmpty();
    assertThat(match("/usr/bin/bash", "bash", "-c", "claude")).isEmpty();
    assertThat(
            match(
                "/usr/bin/node",
                "node",
                "/usr/lib/node_modules/npm/bin/npm-cli.js",
                "install",
                "-g",
                "@anthropic-ai/claude-code"))
        .isEmpty();
    assertThat(match("/usr/bin/less", "less", "/home/dev/@anthropic-ai/claude-codex/notes"))
        .isEmpty();
    assertThat(match(null)).isEmpty();
  }

  @Test
  void aShellIsAShellLoginOrNot() {
    assertThat(CliMatch.isShell(List.of("-bash"))).isTrue();
    assertThat(CliMatch.isShell(List.of("/usr/bin/zsh"))).isTrue();
    assertThat(CliMatch.isShell(List.of("python3"))).isFalse();
    assertThat(CliMatch.isShell(List.of())).isFalse();
  }
}
