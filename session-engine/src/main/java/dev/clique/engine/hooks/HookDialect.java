package dev.clique.engine.hooks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.engine.state.Report;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** What one CLI's hook events say of its state, and how the engine installs those hooks. */
public interface HookDialect {
  /**
   * What {@code event} (the JSON the CLI's hook sent) says, or empty for an event that says nothing
   * of the state.
   *
   * @throws IllegalArgumentException when it is no event of this CLI's at all
   */
  Optional<Report> read(JsonNode event, long nowMillis);

  /**
   * The CLI's own id of the session {@code event} is of, for a CLI that chooses its ids itself and
   * resumes a session only by its id (opencode): the engine keeps the first it hears, so that the
   * session started again goes on with the same conversation. Empty for the CLIs that take the id
   * clique gives them.
   */
  default Optional<String> cliSessionId(JsonNode event) {
    return Optional.empty();
  }

  /**
   * The value of the {@code {hook_settings}} placeholder of the CLI's arguments: settings that send
   * each event to {@code url} with the session's own token from the pane's environment (never the
   * token itself), or {@code ""} when the CLI takes its hooks some other way.
   */
  String settings(String url);

  /**
   * The variable of the pane's environment that names a file holding {@link #settings}, for a CLI
   * that takes no settings as an argument and reads them from a file an environment variable names:
   * the engine writes that file of its own for the run. Empty when the CLI takes them as an
   * argument ({@code {hook_settings}}).
   */
  default Optional<String> settingsFileVariable() {
    return Optional.empty();
  }

  /**
   * What the file {@link #settingsFileVariable} names holds: {@link #settings}, with whatever the
   * file the CLI would read without the variable holds kept.
   */
  default String settingsFile(String url) {
    return settings(url);
  }

  /**
   * As {@link #settings(String)}, for a CLI that reads its hooks from files rather than from an
   * argument: they are written under {@code dir} (clique's own), and the value names them.
   */
  default String settings(String url, Path dir) throws IOException {
    return settings(url);
  }

  /**
   * Variables for the pane's environment, for a CLI that takes its hooks from there rather than
   * from an argument (the session's token is in it already); what they name may be written into
   * {@code hooksDir}, the engine's own folder for them. Empty for most CLIs.
   */
  default Map<String, String> environment(String url, Path hooksDir) throws IOException {
    return Map.of();
  }

  /** The dialect a catalogue entry names ({@code hooks = "claude"}), if the engine knows it. */
  static Optional<HookDialect> named(String name) {
    return switch (name == null ? "" : name) {
      case "claude" -> Optional.of(new ClaudeHooks());
      case "codex" -> Optional.of(new CodexHooks());
      case "qwen" -> Optional.of(new QwenHooks());
      case "copilot" -> Optional.of(new CopilotHooks());
      case "pi" -> Optional.of(new PiHooks());
      case "opencode" -> Optional.of(new OpencodeHooks());
      default -> Optional.empty();
    };
  }
}
