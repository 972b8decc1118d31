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
   * How one run of the CLI is given hooks that send each event to {@code url} with the session's
   * own token from the pane's environment (never the token itself). What the CLI reads from files
   * of clique's is written under {@code hooksDir}, the engine's own folder for them.
   */
  Install install(String url, Path hooksDir) throws IOException;

  /**
   * What one run of a CLI is given, in the one way that CLI takes its hooks.
   *
   * @param argument the value of the {@code {hook_settings}} placeholder of its arguments ({@code
   *     ""} when it takes them otherwise)
   * @param environment variables for its pane
   * @param file a file of the run's own for a CLI that reads its hooks from a file a variable
   *     names: the engine writes it per session and sets the variable; null when none
   */
  record Install(String argument, Map<String, String> environment, RunFile file) {
    /** Nothing: a CLI without hooks clique reads. */
    public static final Install NONE = new Install("", Map.of(), null);

    public Install {
      environment = Map.copyOf(environment);
    }

    static Install argument(String value) {
      return new Install(value, Map.of(), null);
    }

    static Install environment(Map<String, String> variables) {
      return new Install("", variables, null);
    }

    static Install file(String variable, String content) {
      return new Install("", Map.of(), new RunFile(variable, content));
    }
  }

  /** A file the engine writes for one run, and the variable that names it to the CLI. */
  record RunFile(String variable, String content) {}

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
