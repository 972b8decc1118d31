package dev.clique.conformance;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The real agent CLIs, at the versions {@code agent-clis/package-lock.json} pins, installed by the
 * build's {@code npm ci}. A suite that needs one fails loudly when it is missing.
 */
final class AgentClis {
  private AgentClis() {}

  /**
   * {@code agent-clis/node_modules/.bin}: where {@code claude}, {@code codex}, {@code gemini},
   * {@code opencode} are.
   */
  static Path bin() {
    Path bin =
        Path.of(System.getProperty("clique.agentClis", "agent-clis"), "node_modules", ".bin")
            .toAbsolutePath()
            .normalize();
    for (String cli : new String[] {"claude", "codex", "gemini", "opencode"}) {
      if (!Files.isExecutable(bin.resolve(cli))) {
        throw new IllegalStateException(
            "the real " + cli + " is missing at " + bin + ": run the suites through `mvn verify`");
      }
    }
    return bin;
  }

  /** A PATH that finds the real CLIs first, then the machine's own programs. */
  static String path() {
    return bin() + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
  }
}
