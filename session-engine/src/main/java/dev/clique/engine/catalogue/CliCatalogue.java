package dev.clique.engine.catalogue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CLIs clique can start: the bundled {@code clis.toml}, overridden entry by entry by {@code
 * $CLIQUE_HOME/clis.toml}. A broken override is reported in the log and ignored, never fatal.
 */
public final class CliCatalogue {
  private static final Logger log = LoggerFactory.getLogger(CliCatalogue.class);
  private static final String BUNDLED = "clis.toml";

  private final Map<String, CliDefinition> clis;
  private final List<Path> searchPath;

  // Looking a binary up costs a few dozen failed stat calls: GET /api/state must not pay them.
  private volatile Map<String, Boolean> installed;

  private CliCatalogue(Map<String, CliDefinition> clis, List<Path> searchPath) {
    this.clis = clis;
    this.searchPath = searchPath;
    refreshInstalled();
  }

  /** The bundled catalogue with the override file (if it exists) applied on top. */
  public static CliCatalogue load(Path override, Map<String, String> env) {
    Map<String, CliDefinition> clis = new LinkedHashMap<>();
    try (InputStream in = CliCatalogue.class.getResourceAsStream(BUNDLED)) {
      if (in == null) {
        throw new IllegalStateException("the bundled clis.toml is missing from the jar");
      }
      merge(clis, new TomlMapper().readTree(in));
    } catch (IOException e) {
      throw new IllegalStateException("the bundled clis.toml cannot be read: " + e.getMessage(), e);
    }
    if (override != null && Files.isRegularFile(override)) {
      try {
        merge(clis, new TomlMapper().readTree(override.toFile()));
      } catch (IOException | RuntimeException e) {
        log.warn("ignoring {}: {}", override, e.getMessage());
      }
    }
    return new CliCatalogue(Map.copyOf(clis), searchPath(env));
  }

  public Optional<CliDefinition> find(String id) {
    return Optional.ofNullable(id == null ? null : clis.get(id));
  }

  /**
   * The CLI whose binary is named {@code command} (a pane's foreground command, as tmux names it),
   * if one is.
   */
  public Optional<CliDefinition> findByCommand(String command) {
    if (command == null || command.isBlank()) {
      return Optional.empty();
    }
    return clis.values().stream()
        .filter(cli -> Path.of(cli.command()).getFileName().toString().equals(command))
        .findFirst();
  }

  public Collection<CliDefinition> all() {
    return clis.values().stream().sorted((a, b) -> a.id().compareTo(b.id())).toList();
  }

  public Optional<Path> resolve(CliDefinition cli) {
    return cli.resolve(searchPath);
  }

  /**
   * Whether the CLI's binary was found when last looked up ({@link #refreshInstalled}); starting a
   * session looks it up afresh.
   */
  public boolean installed(CliDefinition cli) {
    Boolean known = installed.get(cli.id());
    return known != null ? known : resolve(cli).isPresent();
  }

  /** Looks every CLI's binary up again (the engine does it every few seconds, off requests). */
  public void refreshInstalled() {
    Map<String, Boolean> next = new LinkedHashMap<>();
    for (CliDefinition cli : clis.values()) {
      next.put(cli.id(), resolve(cli).isPresent());
    }
    installed = Map.copyOf(next);
  }

  private static void merge(Map<String, CliDefinition> into, JsonNode root) {
    JsonNode table = root.path("cli");
    for (Map.Entry<String, JsonNode> entry : table.properties()) {
      String id = entry.getKey();
      JsonNode node = entry.getValue();
      CliDefinition base = into.get(id);
      String command = text(node, "command", base == null ? "" : base.command());
      if (command.isBlank()) {
        log.warn("ignoring CLI {}: it has no command", id);
        continue;
      }
      into.put(
          id,
          new CliDefinition(
              id,
              text(node, "label", base == null ? id : base.label()),
              command,
              strings(node, "args", base == null ? List.of() : base.args()),
              strings(node, "resume_args", base == null ? List.of() : base.resumeArgs()),
              strings(node, "modes", base == null ? List.of() : base.modes()),
              strings(node, "mode_args", base == null ? List.of() : base.modeArgs()),
              text(node, "transcript", base == null ? "" : base.transcript()),
              text(node, "hooks", base == null ? "" : base.hooks()),
              patterns(id, node, "waiting", base == null ? List.of() : base.waiting()),
              patterns(
                  id,
                  node,
                  "permission_detail",
                  base == null ? List.of() : base.permissionDetail()),
              patterns(id, node, "questions", base == null ? List.of() : base.questions()),
              patterns(id, node, "trust", base == null ? List.of() : base.trust()),
              patterns(id, node, "first_run", base == null ? List.of() : base.firstRun()),
              patterns(id, node, "errors", base == null ? List.of() : base.errors()),
              patterns(id, node, "working", base == null ? List.of() : base.working()),
              patterns(id, node, "answer", base == null ? List.of() : base.answer()),
              patterns(id, node, "title_working", base == null ? List.of() : base.titleWorking()),
              patterns(id, node, "title_waiting", base == null ? List.of() : base.titleWaiting()),
              strings(node, "packages", base == null ? List.of() : base.packages())));
    }
  }

  private static String text(JsonNode node, String key, String fallback) {
    JsonNode value = node.get(key);
    return value != null && value.isTextual() ? value.asText() : fallback;
  }

  private static List<String> strings(JsonNode node, String key, List<String> fallback) {
    JsonNode value = node.get(key);
    if (value == null || !value.isArray()) {
      return fallback;
    }
    List<String> out = new ArrayList<>();
    value.forEach(v -> out.add(v.asText()));
    return out;
  }

  private static List<Pattern> patterns(
      String id, JsonNode node, String key, List<Pattern> fallback) {
    JsonNode value = node.get(key);
    if (value == null || !value.isArray()) {
      return fallback;
    }
    List<Pattern> out = new ArrayList<>();
    for (JsonNode v : value) {
      try {
        out.add(Pattern.compile(v.asText()));
      } catch (PatternSyntaxException e) {
        log.warn("ignoring a bad {} pattern of CLI {}: {}", key, id, e.getDescription());
      }
    }
    return out;
  }

  private static List<Path> searchPath(Map<String, String> env) {
    List<Path> dirs = new ArrayList<>();
    String path = env.getOrDefault("PATH", "");
    for (String dir : path.split(":")) {
      if (!dir.isBlank()) {
        dirs.add(Path.of(dir));
      }
    }
    String home = env.getOrDefault("HOME", System.getProperty("user.home"));
    for (String extra :
        List.of(
            ".local/bin", ".npm-global/bin", ".bun/bin", ".cargo/bin", ".claude/local", "bin")) {
      dirs.add(Path.of(home, extra));
    }
    dirs.add(Path.of("/usr/local/bin"));
    dirs.add(Path.of("/opt/homebrew/bin"));
    dirs.add(Path.of("/usr/bin"));
    dirs.add(Path.of("/bin"));
    return dirs;
  }
}
