package dev.clique.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.client.CliqueClient;
import dev.clique.client.CliqueException;
import dev.clique.client.EngineState;
import dev.clique.client.Session;
import dev.clique.client.Usage;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code clique ls}: the sessions, what each is doing and why it needs you. */
@Command(
    name = "ls",
    mixinStandardHelpOptions = true,
    description = {
      "List the sessions and what each is doing.",
      "Each with its name, CLI, state, tokens used, context filled, why it needs you, folder",
      "and age. TOKENS counts the input and output its CLI recorded, cache reads aside;",
      "CONTEXT is how full the model's window was at the last request (its tokens when the",
      "CLI does not record the window); - when the CLI records neither.",
      "With an engines file ($CLIQUE_HOME/engines.toml), the sessions of every engine it names,",
      "each with its engine, and which engines did not answer."
    })
final class LsCommand extends LocalCommand {
  /** How long one held request of {@code --watch} lasts: the ages are redrawn this often. */
  private static final int WATCH_SECONDS = 30;

  private static final ObjectMapper JSON = LocalEngine.JSON;

  @Option(
      names = "--json",
      description = "the engine's sessions as JSON, with each one's usage and limits")
  boolean json;

  @Option(
      names = "--watch",
      description =
          "Redraw on every change of a session (it appears, goes, or changes state), until Ctrl-C."
              + " Off a terminal, one table (or JSON line) per change.")
  boolean watch;

  @Option(
      names = "--local",
      description = "Only this machine's engine, even when an engines file names others.")
  boolean local;

  /** Where the state comes from: this machine's engine, or every engine of the engines file. */
  private interface States {
    JsonNode now() throws LocalEngine.Failure;

    /** Held until a change after {@code revision}, or {@code seconds}. */
    JsonNode after(long revision, int seconds) throws LocalEngine.Failure;
  }

  @Override
  int run(LocalEngine engine, PrintWriter out) throws LocalEngine.Failure {
    Map<String, String> env = Environment.variables();
    Path enginesFile = EnginesFile.in(env);
    States states =
        !local && Files.exists(enginesFile)
            ? everyEngine(enginesFile, env)
            : new States() {
              @Override
              public JsonNode now() throws LocalEngine.Failure {
                return engine.get("/api/state");
              }

              @Override
              public JsonNode after(long revision, int seconds) throws LocalEngine.Failure {
                return engine.get("/api/state?after=" + revision + "&timeout=" + seconds);
              }
            };
    return run(states, out);
  }

  private static States everyEngine(Path file, Map<String, String> env) throws LocalEngine.Failure {
    CliqueClient client;
    try {
      client = EnginesFile.read(file, env);
    } catch (IOException e) {
      throw new LocalEngine.Failure(
          "cannot read the engines set-up: " + e.getMessage(), ExitCodes.NOT_CONFIGURED);
    } catch (IllegalArgumentException e) {
      throw new LocalEngine.Failure(e.getMessage(), ExitCodes.NOT_CONFIGURED);
    }
    return new States() {
      @Override
      public JsonNode now() throws LocalEngine.Failure {
        return tree(() -> client.state());
      }

      @Override
      public JsonNode after(long revision, int seconds) throws LocalEngine.Failure {
        return tree(() -> client.state(revision, Duration.ofSeconds(seconds)));
      }
    };
  }

  private interface StateCall {
    EngineState call() throws CliqueException;
  }

  private static JsonNode tree(StateCall call) throws LocalEngine.Failure {
    try {
      return JSON.readTree(call.call().json());
    } catch (CliqueException e) {
      throw new LocalEngine.Failure(e.getMessage(), ExitCodes.NOT_CONFIGURED);
    } catch (IOException e) {
      throw new LocalEngine.Failure("the merged state is not JSON: " + e.getMessage(), 1);
    }
  }

  private int run(States engine, PrintWriter out) throws LocalEngine.Failure {
    JsonNode state = engine.now();
    Colours colours = Colours.forTerminal(Environment.variables());
    if (!watch) {
      print(state, colours, out);
      return ExitCodes.OK;
    }
    if (!state.path("revision").isIntegralNumber()) {
      throw new LocalEngine.Failure(
          "this engine has no change feed to watch: run the clique serve of this version",
          ExitCodes.NOT_CONFIGURED);
    }
    Screen screen = Screen.open(out, System.console() != null);
    try {
      long revision = state.path("revision").asLong();
      screen.draw(lines(state, colours));
      while (true) {
        JsonNode next;
        try {
          // Held by the engine until something changes: no polling here.
          next = engine.after(revision, WATCH_SECONDS);
        } catch (LocalEngine.Failure failed) {
          // An engine that stopped meanwhile cut the answer short: a new request says so plainly.
          engine.now();
          throw failed;
        }
        long nextRevision = next.path("revision").asLong();
        if (nextRevision != revision || screen.terminal()) {
          screen.draw(lines(next, colours)); // on a terminal also when only the ages moved
        }
        revision = nextRevision;
      }
    } finally {
      screen.close();
    }
  }

  private void print(JsonNode state, Colours colours, PrintWriter out) {
    lines(state, colours).forEach(out::println);
  }

  private List<String> lines(JsonNode state, Colours colours) {
    JsonNode sessions = state.path("sessions");
    List<String> silent = new ArrayList<>();
    for (JsonNode engine : state.path("engines")) {
      if (!engine.path("ok").asBoolean()) {
        silent.add(
            "engine "
                + engine.path("name").asText()
                + " did not answer: "
                + engine.path("error").asText());
      }
    }
    if (json) {
      // stdout stays JSON; the command's own stderr, which picocli gives (and a test captures)
      PrintWriter err = spec.commandLine().getErr();
      silent.forEach(line -> err.println("clique ls: " + line));
      err.flush();
      return List.of(LocalEngine.json(sessions));
    }
    boolean engines = state.has("engines");
    List<String[]> rows = new ArrayList<>();
    rows.add(
        engines
            ? new String[] {
              "ENGINE", "NAME", "CLI", "STATE", "TOKENS", "CONTEXT", "COST", "WHY", "WHERE",
              "FOLDER", "AGE"
            }
            : new String[] {
              "NAME", "CLI", "STATE", "TOKENS", "CONTEXT", "COST", "WHY", "WHERE", "FOLDER", "AGE"
            });
    double now = System.currentTimeMillis() / 1000.0;
    for (JsonNode session : sessions) {
      Optional<Usage> usage = usage(session);
      JsonNode attention = session.path("attention");
      String why =
          attention.isObject()
              ? attention.path("kind").asText() + ": " + attention.path("detail").asText()
              : "";
      String[] row = {
        session.path("name").asText(),
        session.path("cli").asText(),
        session.path("state").asText(),
        tokens(usage),
        context(usage),
        cost(usage),
        why.length() > 60 ? why.substring(0, 59) + "…" : why,
        where(session.path("source")),
        session.path("cwd").asText(),
        age(now - session.path("created").asDouble(now))
      };
      if (engines) {
        String[] withEngine = new String[row.length + 1];
        withEngine[0] = session.path("engine").asText();
        System.arraycopy(row, 0, withEngine, 1, row.length);
        row = withEngine;
      }
      rows.add(row);
    }
    int stateColumn = engines ? 3 : 2;
    int[] widths = new int[rows.get(0).length];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    List<String> lines = new ArrayList<>();
    for (int r = 0; r < rows.size(); r++) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < widths.length; i++) {
        String cell = String.format("%-" + widths[i] + "s", rows.get(r)[i]);
        line.append(r > 0 && i == stateColumn ? colours.state(rows.get(r)[i], cell) : cell);
        line.append(i < widths.length - 1 ? "  " : "");
      }
      lines.add(line.toString().stripTrailing());
    }
    lines.addAll(silent);
    return lines;
  }

  /**
   * Where a session runs: {@code clique} (the engine's own tmux server), another tmux server's
   * socket and pane ({@code default:%3}), or a terminal outside tmux ({@code VS Code pts/3}, {@code
   * pid 4242} for a process without one).
   */
  static String where(JsonNode source) {
    if (!source.isObject()) {
      return "clique";
    }
    if (source.has("pid")) {
      String tty = source.path("tty").asText("");
      String where =
          tty.isEmpty() ? "pid " + source.path("pid").asText() : tty.replaceFirst("^/dev/", "");
      String terminal = source.path("terminal").asText("");
      return terminal.isEmpty() ? where : terminal + " " + where;
    }
    String socket = source.path("socket").asText("");
    return socket.substring(socket.lastIndexOf('/') + 1) + ":" + source.path("pane").asText();
  }

  /**
   * A row's usage as client-lib reads it (its figures added up and divided there, as everywhere
   * else); none when the row has none, or one that is not a usage.
   */
  private static Optional<Usage> usage(JsonNode session) {
    if (!session.path("usage").isObject()) {
      return Optional.empty();
    }
    try {
      return Session.fromJson(session.toString()).usage();
    } catch (IllegalArgumentException notARow) {
      return Optional.empty();
    }
  }

  /**
   * The tokens the model took in or wrote (fresh input, cache writes, output), cache reads aside:
   * they are most of a long session's input and cost little, so counting them would hide the rest.
   */
  static String tokens(Optional<Usage> usage) {
    OptionalLong tokens = usage.isPresent() ? usage.get().tokens() : OptionalLong.empty();
    return tokens.isPresent() ? count(tokens.getAsLong()) : "-";
  }

  /** How full the context window was at the last request; its tokens when the window is unknown. */
  static String context(Optional<Usage> usage) {
    if (usage.isEmpty()) {
      return "-";
    }
    Optional<Double> percent = usage.get().contextPercent();
    if (percent.isPresent()) {
      return Math.round(percent.get()) + "%";
    }
    OptionalLong tokens = usage.get().contextTokens();
    return tokens.isPresent() ? count(tokens.getAsLong()) : "-";
  }

  /**
   * The engine's estimate of what the tokens cost at list prices, in dollars and cents; {@code -}
   * when it gives none (a model without prices, a count not recorded).
   */
  static String cost(Optional<Usage> usage) {
    OptionalDouble usd = usage.isPresent() ? usage.get().costUsdEstimate() : OptionalDouble.empty();
    if (usd.isEmpty()) {
      return "-";
    }
    double dollars = usd.getAsDouble();
    return dollars > 0 && dollars < 0.005 ? "<$0.01" : String.format(Locale.ROOT, "$%.2f", dollars);
  }

  /** {@code 950}, {@code 12.3k}, {@code 1.2M}. */
  static String count(long n) {
    if (n < 1_000) {
      return Long.toString(n);
    }
    if (n < 999_950) {
      return String.format(Locale.ROOT, "%.1fk", n / 1_000.0);
    }
    if (n < 999_950_000) {
      return String.format(Locale.ROOT, "%.1fM", n / 1_000_000.0);
    }
    return String.format(Locale.ROOT, "%.1fG", n / 1_000_000_000.0);
  }

  private static String age(double seconds) {
    long s = Math.max(0, (long) seconds);
    if (s < 60) {
      return s + "s";
    }
    if (s < 3600) {
      return s / 60 + "m";
    }
    if (s < 86_400) {
      return s / 3600 + "h";
    }
    return s / 86_400 + "d";
  }
}
