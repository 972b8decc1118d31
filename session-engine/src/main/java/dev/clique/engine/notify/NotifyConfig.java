package dev.clique.engine.notify;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.engine.catalogue.TomlFile;
import dev.clique.engine.home.PrivateFile;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * What {@code notify.toml} says: the {@code [rules]} and the targets. A target with a mistake is
 * left out and the mistake said with its file and line; the others go on.
 *
 * <pre>{@code
 * [rules]
 * dwell_seconds = 3            # waiting, usage_limit, error: told once so for this long
 * finished_after_seconds = 30  # finished: only after this much work
 * remind_every_seconds = 0     # waiting told again this often while it lasts (0: never)
 * skip_when_watched = true     # nothing about a session a person is looking at
 *
 * [[webhook]]
 * url = "https://ntfy.sh/my-secret-topic"
 * format = "ntfy"              # json (default), ntfy, slack, discord
 * events = ["waiting", "usage_limit", "error"]
 * headers_file = "ntfy.headers"   # "Name: value" lines, mode 0600, beside notify.toml
 *
 * [[command]]
 * run = ["notify-send", "{title}", "{message}"]
 * timeout_seconds = 10
 * cli = "claude"
 * name = "api-*"
 * }</pre>
 */
record NotifyConfig(NotifyRules.Settings rules, List<Target> targets) {
  static final NotifyConfig NONE = new NotifyConfig(NotifyRules.Settings.DEFAULT, List.of());

  static final int DEFAULT_PER_MINUTE = 20;
  static final Duration DEFAULT_COMMAND_LIMIT = Duration.ofSeconds(10);

  private static final Set<String> COMMON = Set.of("events", "cli", "name", "max_per_minute");
  private static final Set<String> WEBHOOK_KEYS = Set.of("url", "format", "headers_file", "click");
  private static final Set<String> COMMAND_KEYS = Set.of("run", "timeout_seconds");
  private static final Set<String> RULE_KEYS =
      Set.of(
          "dwell_seconds",
          "finished_after_seconds",
          "burst_seconds",
          "remind_every_seconds",
          "skip_when_watched");
  private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

  /** A mistake in one part of the file: where, and what. */
  private static final class Mistake extends Exception {
    private static final long serialVersionUID = 1L;

    Mistake(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * Reads {@code file}; no file is no target. Each mistake goes to {@code problems} (a line naming
   * the file and line), and the part it is in is left out.
   */
  static NotifyConfig read(Path file, Consumer<String> problems) {
    if (!Files.exists(file)) {
      return NONE;
    }
    TomlFile toml;
    try {
      toml = TomlFile.parse(file.toString(), Files.readString(file));
    } catch (IOException e) {
      problems.accept(e.getMessage() + ": no notification is sent until it is fixed");
      return NONE;
    }
    return of(toml, file.toAbsolutePath().getParent(), problems);
  }

  static NotifyConfig of(TomlFile toml, Path dir, Consumer<String> problems) {
    JsonNode tree = toml.tree();
    for (Iterator<String> keys = tree.fieldNames(); keys.hasNext(); ) {
      String key = keys.next();
      if (!Set.of("rules", "webhook", "command").contains(key)) {
        problems.accept(
            toml.where(key) + ": unknown table `" + key + "` (rules, webhook or command)");
      }
    }
    NotifyRules.Settings rules = NotifyRules.Settings.DEFAULT;
    try {
      rules = rules(toml, tree.path("rules"));
    } catch (Mistake e) {
      problems.accept(e.getMessage() + ": the default rules hold");
    }
    List<Target> targets = new ArrayList<>();
    for (String kind : List.of("webhook", "command")) {
      JsonNode entries = tree.path(kind);
      if (entries.isMissingNode()) {
        continue;
      }
      if (!entries.isArray()) {
        problems.accept(
            toml.where(kind) + ": `" + kind + "` is a list of tables: [[" + kind + "]]");
        continue;
      }
      for (int i = 0; i < entries.size(); i++) {
        try {
          targets.add(
              kind.equals("webhook")
                  ? webhook(toml, i, entries.get(i), dir)
                  : command(toml, i, entries.get(i)));
        } catch (Mistake e) {
          problems.accept(e.getMessage() + ": this " + kind + " is left out");
        }
      }
    }
    return new NotifyConfig(rules, List.copyOf(targets));
  }

  private static NotifyRules.Settings rules(TomlFile toml, JsonNode rules) throws Mistake {
    if (rules.isMissingNode()) {
      return NotifyRules.Settings.DEFAULT;
    }
    if (!rules.isObject()) {
      throw new Mistake(toml.where("rules") + ": `rules` is a table: [rules]");
    }
    for (Iterator<String> keys = rules.fieldNames(); keys.hasNext(); ) {
      String key = keys.next();
      if (!RULE_KEYS.contains(key)) {
        throw new Mistake(
            toml.where("rules." + key)
                + ": unknown key `"
                + key
                + "` ("
                + String.join(", ", RULE_KEYS)
                + ")");
      }
    }
    NotifyRules.Settings defaults = NotifyRules.Settings.DEFAULT;
    return new NotifyRules.Settings(
        rule(toml, rules, "dwell_seconds", defaults.dwell(), 3600),
        rule(toml, rules, "finished_after_seconds", defaults.finishedAfter(), 86_400),
        rule(toml, rules, "burst_seconds", defaults.burst(), 60),
        rule(toml, rules, "remind_every_seconds", defaults.remindEvery(), 86_400),
        flag(toml, rules, "skip_when_watched", defaults.skipWhenWatched()));
  }

  private static boolean flag(TomlFile toml, JsonNode rules, String key, boolean otherwise)
      throws Mistake {
    JsonNode value = rules.path(key);
    if (value.isMissingNode()) {
      return otherwise;
    }
    if (!value.isBoolean()) {
      throw new Mistake(toml.where("rules." + key) + ": `" + key + "` is true or false");
    }
    return value.asBoolean();
  }

  private static Duration rule(
      TomlFile toml, JsonNode rules, String key, Duration otherwise, double max) throws Mistake {
    return seconds(toml.where("rules." + key), key, rules.path(key), otherwise, 0, max);
  }

  private static Duration seconds(
      String where, String key, JsonNode value, Duration otherwise, double min, double max)
      throws Mistake {
    if (value.isMissingNode()) {
      return otherwise;
    }
    if (!value.isNumber() || value.asDouble() < min || value.asDouble() > max) {
      throw new Mistake(
          where + ": `" + key + "` is a number of seconds from " + min + " to " + max);
    }
    return Duration.ofMillis(Math.round(value.asDouble() * 1000));
  }

  private static Target webhook(TomlFile toml, int index, JsonNode entry, Path dir) throws Mistake {
    Place at = new Place(toml, "webhook", index);
    at.requireKeys(entry, WEBHOOK_KEYS);
    String text = at.string(entry, "url", true);
    URI url;
    try {
      url = new URI(text);
    } catch (URISyntaxException e) {
      throw at.mistake("url", "`url` is not a URL: " + e.getReason());
    }
    if (!("http".equals(url.getScheme()) || "https".equals(url.getScheme()))
        || url.getHost() == null) {
      throw at.mistake("url", "`url` must be an http:// or https:// URL with a host");
    }
    String label = "webhook " + (index + 1) + " (" + Target.masked(url) + ")";
    String formatName = at.string(entry, "format", false);
    Format format = formatName == null ? Format.JSON : Format.named(formatName);
    if (format == null) {
      throw at.mistake(
          "format", "unknown format `" + formatName + "` (json, ntfy, slack, discord)");
    }
    if (format == Format.NTFY
        && (url.getRawPath() == null
            || url.getRawPath().length() <= 1
            || url.getRawPath().endsWith("/"))) {
      throw at.mistake("url", "an ntfy `url` ends with its topic: https://ntfy.sh/<topic>");
    }
    String headersFile = at.string(entry, "headers_file", false);
    Map<String, String> headers = Map.of();
    if (headersFile != null) {
      headers = headers(at, dir.resolve(headersFile));
    }
    String click = at.string(entry, "click", false);
    return new Target.Webhook(
        label, url, format, headers, click, at.selection(entry), at.perMinute(entry));
  }

  private static Target command(TomlFile toml, int index, JsonNode entry) throws Mistake {
    Place at = new Place(toml, "command", index);
    at.requireKeys(entry, COMMAND_KEYS);
    JsonNode run = entry.path("run");
    if (!run.isArray() || run.isEmpty()) {
      throw at.mistake(
          "run", "`run` is the command and its arguments: run = [\"notify-send\", \"{title}\"]");
    }
    List<String> argv = new ArrayList<>();
    for (JsonNode word : run) {
      if (!word.isTextual()) {
        throw at.mistake("run", "each word of `run` is a string");
      }
      argv.add(word.asText());
    }
    Duration limit =
        seconds(
            toml.where("command", index, "timeout_seconds"),
            "timeout_seconds",
            entry.path("timeout_seconds"),
            DEFAULT_COMMAND_LIMIT,
            0.1,
            600);
    String label = "command " + (index + 1) + " (" + Path.of(argv.get(0)).getFileName() + ")";
    return new Target.Command(
        label, List.copyOf(argv), limit, at.selection(entry), at.perMinute(entry));
  }

  /**
   * The headers of a {@code headers_file}: {@code Name: value} lines, blank lines and {@code #}
   * comments aside; refused unless the file is its owner's alone, as a key is.
   */
  private static Map<String, String> headers(Place at, Path file) throws Mistake {
    try {
      PrivateFile.require(file, "headers file", "write its `Name: value` lines there, mode 600");
      Map<String, String> headers = new LinkedHashMap<>();
      List<String> lines = Files.readAllLines(file);
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i).strip();
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        int colon = line.indexOf(':');
        String name = colon < 0 ? "" : line.substring(0, colon).strip();
        String value = colon < 0 ? "" : line.substring(colon + 1).strip();
        // The value is never said: it is the secret.
        if (!HEADER_NAME.matcher(name).matches()
            || value.isEmpty()
            || value.chars().anyMatch(Character::isISOControl)) {
          throw at.mistake(
              "headers_file", file + " line " + (i + 1) + " is not a `Name: value` header");
        }
        headers.put(name, value);
      }
      return Map.copyOf(headers);
    } catch (IOException e) {
      throw at.mistake("headers_file", e.getMessage());
    }
  }

  /** One {@code [[kind]]} table of the file, to read its keys and say where a mistake is. */
  private record Place(TomlFile toml, String kind, int index) {
    Mistake mistake(String key, String message) {
      return new Mistake(toml.where(kind, index, key) + ": " + message);
    }

    void requireKeys(JsonNode entry, Set<String> own) throws Mistake {
      if (!entry.isObject()) {
        throw mistake(null, "each [[" + kind + "]] is a table");
      }
      for (Iterator<String> keys = entry.fieldNames(); keys.hasNext(); ) {
        String key = keys.next();
        if (!own.contains(key) && !COMMON.contains(key)) {
          List<String> known = new ArrayList<>(own);
          known.addAll(COMMON);
          known.sort(null);
          throw mistake(
              key,
              "unknown key `"
                  + key
                  + "` ("
                  + String.join(", ", known)
                  + (key.toLowerCase(Locale.ROOT).contains("header")
                      ? "; headers are read from a `headers_file` of mode 600, never from here"
                      : "")
                  + ")");
        }
      }
    }

    String string(JsonNode entry, String key, boolean required) throws Mistake {
      JsonNode value = entry.path(key);
      if (value.isMissingNode()) {
        if (required) {
          throw mistake(null, "`" + key + "` is missing");
        }
        return null;
      }
      if (!value.isTextual() || value.asText().isBlank()) {
        throw mistake(key, "`" + key + "` is a string");
      }
      return value.asText();
    }

    Selection selection(JsonNode entry) throws Mistake {
      Set<Event> events = EnumSet.allOf(Event.class);
      JsonNode named = entry.path("events");
      if (!named.isMissingNode()) {
        if (!named.isArray() || named.isEmpty()) {
          throw mistake("events", "`events` is a list of events: " + allEvents());
        }
        events = EnumSet.noneOf(Event.class);
        for (JsonNode each : named) {
          Event event = Event.named(each.asText());
          if (event == null || !each.isTextual()) {
            throw mistake("events", "unknown event `" + each.asText() + "` (" + allEvents() + ")");
          }
          events.add(event);
        }
      }
      String cli = string(entry, "cli", false);
      String name = string(entry, "name", false);
      return new Selection(
          Set.copyOf(events),
          cli == null ? null : Selection.glob(cli),
          name == null ? null : Selection.glob(name));
    }

    int perMinute(JsonNode entry) throws Mistake {
      JsonNode value = entry.path("max_per_minute");
      if (value.isMissingNode()) {
        return DEFAULT_PER_MINUTE;
      }
      if (!value.isInt() || value.asInt() < 1 || value.asInt() > 600) {
        throw mistake("max_per_minute", "`max_per_minute` is a whole number from 1 to 600");
      }
      return value.asInt();
    }

    private static String allEvents() {
      List<String> names = new ArrayList<>();
      for (Event event : Event.values()) {
        names.add(event.wireName());
      }
      return String.join(", ", names);
    }
  }
}
