package dev.clique.conformance;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
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
   * {@code qwen}, {@code copilot}, {@code pi}, {@code opencode} (and the Node 22 pi needs) are.
   */
  static Path bin() {
    Path bin =
        Path.of(System.getProperty("clique.agentClis", "agent-clis"), "node_modules", ".bin")
            .toAbsolutePath()
            .normalize();
    for (String cli :
        new String[] {"claude", "codex", "gemini", "qwen", "copilot", "pi", "opencode"}) {
      if (!Files.isExecutable(bin.resolve(cli))) {
        throw new IllegalStateException(
            "the real " + cli + " is missing at " + bin + ": run the suites through `mvn verify`");
      }
    }
    return bin;
  }

  /** The version of the CLI package {@code pkg} the lock pinned, as its package.json says. */
  static String pinned(String pkg) {
    Path manifest = bin().getParent().resolve(pkg).resolve("package.json");
    try {
      return new ObjectMapper().readTree(manifest.toFile()).path("version").asText();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + manifest, e);
    }
  }

  /** A PATH that finds the real CLIs first, then the machine's own programs. */
  static String path() {
    return bin() + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
  }
}
