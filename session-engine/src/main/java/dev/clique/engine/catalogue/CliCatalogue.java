package dev.clique.engine.catalogue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
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
 * The CLIs clique can start and the questions any program may ask: the bundled {@code clis.toml},
 * overridden entry by entry by {@code $CLIQUE_HOME/clis.toml}. A broken override, or a broken
 * pattern in one, is reported in the log (with the file and line) and ignored, never fatal: what
 * the bundled file says stays.
 */
public final class CliCatalogue {
  private static final Logger log = LoggerFactory.getLogger(CliCatalogue.class);
  private static final String BUNDLED = "clis.toml";

  private final Map<String, CliDefinition> clis;
  private final List<Path> searchPath;
  private final List<String> problems;

  // Looking a binary up costs a few dozen failed stat calls: GET /api/state must not pay them.
  private volatile Map<String, Boolean> installed;

  private CliCatalogue(
      Map<String, CliDefinition> clis, List<Path> searchPath, List<String> problems) {
    this.clis = clis;
    this.searchPath = searchPath;
    this.problems = problems;
    refreshInstalled();
  }

  /**
   * The bundled catalogue with the override file (if it exists) applied on top, its commands looked
   * for on {@code PATH} and in {@code HOME}'s usual folders, as {@code env} has them.
   */
  public static CliCatalogue load(Path override, Map<String, String> env) {
    return load(
        override,
        env.getOrDefault("PATH", ""),
        Path.of(env.getOrDefault("HOME", System.getProperty("user.home"))));
  }

  /**
   * The bundled catalogue with the override file (if it exists) applied on top.
   *
   * @param path where the commands are looked for, as {@code PATH} has it
   * @param userHome the user's home, whose usual folders ({@code ~/.local/bin}, ...) come after
   */
  public static CliCatalogue load(Path override, String path, Path userHome) {
    List<String> problems = new ArrayList<>();
    TomlFile user = null;
    if (override != null && Files.isRegularFile(override)) {
      try {
        user = TomlFile.parse(override.toString(), Files.readString(override));
      } catch (IOException | RuntimeException e) {
        problems.add("ignoring " + override + ": " + e.getMessage());
      }
    }
    GenericQuestions generic = Bundled.GENERIC;
    if (user != null) {
      generic = generic(user, generic, problems);
    }
    Map<String, CliDefinition> clis = new LinkedHashMap<>();
    merge(clis, Bundled.SOURCE, generic, problems);
    if (user != null) {
      try {
        merge(clis, user, generic, problems);
      } catch (RuntimeException e) {
        problems.add("ignoring " + override + ": " + e.getMessage());
      }
    }
    problems.forEach(log::warn);
    return new CliCatalogue(Map.copyOf(clis), searchPath(path, userHome), List.copyOf(problems));
  }

  /** What was refused while loading, one sentence each (also in the log). */
  List<String> problems() {
    return problems;
  }

  static GenericQuestions bundledGeneric() {
    return Bundled.GENERIC;
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

  private static void merge(
      Map<String, CliDefinition> into,
      TomlFile source,
      GenericQuestions generic,
      List<String> problems) {
    JsonNode table = source.tree().path("cli");
    for (Map.Entry<String, JsonNode> entry : table.properties()) {
      String id = entry.getKey();
      JsonNode node = entry.getValue();
      CliDefinition base = into.get(id);
      String command = text(node, "command", base == null ? "" : base.command());
      if (command.isBlank()) {
        problems.add(
            "ignoring CLI " + id + " (" + source.where("cli." + id) + "): it has no command");
        continue;
      }
      Patterns patterns = new Patterns(source, id, node, problems);
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
              patterns.of("waiting", base == null ? List.of() : base.waiting()),
              patterns.of("permission_detail", base == null ? List.of() : base.permissionDetail()),
              patterns.of("questions", base == null ? List.of() : base.questions()),
              patterns.of("trust", base == null ? List.of() : base.trust()),
              patterns.of("first_run", base == null ? List.of() : base.firstRun()),
              patterns.of("usage_limit", base == null ? List.of() : base.usageLimits()),
              patterns.of("errors", base == null ? List.of() : base.errors()),
              patterns.of("working", base == null ? List.of() : base.working()),
              patterns.of("relaunch", base == null ? List.of() : base.relaunch()),
              patterns.of("answer", base == null ? List.of() : base.answer()),
              patterns.of("title_working", base == null ? List.of() : base.titleWorking()),
              patterns.of("title_waiting", base == null ? List.of() : base.titleWaiting()),
              strings(node, "packages", base == null ? List.of() : base.packages()),
              strings(node, "proven", base == null ? List.of() : base.proven()),
              generic));
    }
  }

  /**
   * {@code base} with {@code source}'s {@code [generic]} tables laid over it, name by name: a new
   * name adds a pattern, a known one replaces it, {@code ""} turns it off, and a broken one is
   * refused (the one it would have replaced stays).
   */
  private static GenericQuestions generic(
      TomlFile source, GenericQuestions base, List<String> problems) {
    JsonNode table = source.tree().path("generic");
    return new GenericQuestions(
        named(source, table, "questions", base.questions(), problems),
        named(source, table, "choices", base.choices(), problems),
        named(source, table, "last_line_questions", base.lastLineQuestions(), problems));
  }

  private static List<GenericQuestions.Named> named(
      TomlFile source,
      JsonNode generic,
      String key,
      List<GenericQuestions.Named> base,
      List<String> problems) {
    JsonNode table = generic.get(key);
    if (table == null) {
      return base;
    }
    String path = "generic." + key;
    if (!table.isObject()) {
      problems.add(
          "ignoring "
              + path
              + " ("
              + source.where(path)
              + "): it is not a table of named patterns");
      return base;
    }
    Map<String, GenericQuestions.Named> byName = new LinkedHashMap<>();
    base.forEach(named -> byName.put(named.name(), named));
    for (Map.Entry<String, JsonNode> entry : table.properties()) {
      String name = entry.getKey();
      String where = source.where(path + "." + name);
      if (!entry.getValue().isTextual()) {
        problems.add("ignoring " + path + "." + name + " (" + where + "): it is not a string");
        continue;
      }
      String regex = entry.getValue().asText();
      if (regex.isEmpty()) {
        byName.remove(name);
        continue;
      }
      try {
        byName.put(name, new GenericQuestions.Named(name, Pattern.compile(regex)));
      } catch (PatternSyntaxException e) {
        problems.add(
            "ignoring the bad pattern "
                + path
                + "."
                + name
                + " ("
                + where
                + "): "
                + e.getDescription()
                + (byName.containsKey(name) ? "; the bundled one stays" : ""));
      }
    }
    return List.copyOf(byName.values());
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

  /** One CLI's pattern lists as {@code source} gives them; a broken pattern is left out. */
  private record Patterns(TomlFile source, String id, JsonNode node, List<String> problems) {
    List<Pattern> of(String key, List<Pattern> fallback) {
      JsonNode value = node.get(key);
      if (value == null || !value.isArray()) {
        return fallback;
      }
      List<Pattern> out = new ArrayList<>();
      for (JsonNode v : value) {
        try {
          out.add(Pattern.compile(v.asText()));
        } catch (PatternSyntaxException e) {
          problems.add(
              "ignoring a bad "
                  + key
                  + " pattern of CLI "
                  + id
                  + " ("
                  + source.where("cli." + id + "." + key)
                  + "): "
                  + e.getDescription());
        }
      }
      return out;
    }
  }

  /** The bundled file, read once: every catalogue starts from it. */
  private static final class Bundled {
    static final TomlFile SOURCE = read();
    static final GenericQuestions GENERIC = readGeneric();

    private static TomlFile read() {
      try (InputStream in = CliCatalogue.class.getResourceAsStream(BUNDLED)) {
        if (in == null) {
          throw new IllegalStateException("the bundled clis.toml is missing from the jar");
        }
        return TomlFile.parse(
            "the bundled clis.toml", new String(in.readAllBytes(), StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new IllegalStateException(
            "the bundled clis.toml cannot be read: " + e.getMessage(), e);
      }
    }

    private static GenericQuestions readGeneric() {
      List<String> problems = new ArrayList<>();
      GenericQuestions generic =
          generic(SOURCE, new GenericQuestions(List.of(), List.of(), List.of()), problems);
      problems.forEach(log::warn);
      return generic;
    }
  }

  private static List<Path> searchPath(String path, Path home) {
    List<Path> dirs = new ArrayList<>();
    for (String dir : path.split(":")) {
      if (!dir.isBlank()) {
        dirs.add(Path.of(dir));
      }
    }
    for (String extra :
        List.of(
            ".local/bin", ".npm-global/bin", ".bun/bin", ".cargo/bin", ".claude/local", "bin")) {
      dirs.add(home.resolve(extra));
    }
    dirs.add(Path.of("/usr/local/bin"));
    dirs.add(Path.of("/opt/homebrew/bin"));
    dirs.add(Path.of("/usr/bin"));
    dirs.add(Path.of("/bin"));
    return dirs;
  }
}
