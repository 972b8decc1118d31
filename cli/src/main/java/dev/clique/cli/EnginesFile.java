package dev.clique.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import dev.clique.client.CliqueClient;
import dev.clique.engine.EngineSettings;
import dev.clique.engine.home.PrivateFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Reads an engines file ({@code $CLIQUE_HOME/engines.toml}): one table an engine, its name the
 * table's, saying where it listens and where its read-only token comes from. The file holds no
 * token itself, but names where tokens are, so it is refused when others may read it, as is a token
 * file.
 *
 * <pre>
 * [engines.laptop]
 * url = "http://127.0.0.1:3200"
 * token_env = "CLIQUE_TOKEN_LAPTOP"      # an environment variable holds its token
 *
 * [engines.box]
 * url = "https://box.example.net:3200"
 * token_file = "box.token"               # or a 0600 file does (beside this one, or a full path)
 * certificate_sha256 = "3B:9F:...:C2"    # trust its certificate alone, as it printed it
 * timeout = 5                            # seconds one call may take (default 10)
 *
 * [engines.lab]
 * url = "http://10.0.0.7:3200"
 * token_env = "CLIQUE_TOKEN_LAB"
 * allow_plain_http = true                # its token over plain HTTP to another machine: say so
 * </pre>
 */
final class EnginesFile {
  /** The file's name in {@code CLIQUE_HOME}. */
  static final String NAME = "engines.toml";

  private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
  private static final Set<String> KEYS =
      Set.of("url", "token_env", "token_file", "timeout", "certificate_sha256", "allow_plain_http");

  private EnginesFile() {}

  /** Where the engines file is: {@code $CLIQUE_HOME/engines.toml}. */
  static Path in(Map<String, String> environment) {
    return EngineSettings.fromEnvironment(environment).home().dir().resolve(NAME);
  }

  /**
   * Reads the file into one client over its engines, each engine's own client bound to its own
   * token only.
   *
   * @param file the engines file
   * @param environment where {@code token_env} names are looked up
   * @return the client over its engines, in the file's order
   * @throws IOException when the file or a token file cannot be read
   * @throws IllegalArgumentException when the file says something wrong; the message names the
   *     file, the engine and what to change, never a token
   */
  static CliqueClient read(Path file, Map<String, String> environment) throws IOException {
    PrivateFile.require(
        file, "engines file", "name your engines in it, one [engines.<name>] table each");
    JsonNode root;
    try {
      root = new TomlMapper().readTree(file.toFile());
    } catch (IOException e) {
      if (e instanceof NoSuchFileException || !Files.exists(file)) {
        throw e;
      }
      throw new IllegalArgumentException(file + ": is not valid TOML: " + firstLine(e), e);
    }
    for (Iterator<String> keys = root.fieldNames(); keys.hasNext(); ) {
      String key = keys.next();
      if (!key.equals("engines")) {
        throw wrong(file, "has `" + key + "` at its top: it holds only [engines.<name>] tables");
      }
    }
    JsonNode engines = root.path("engines");
    if (!engines.isObject() || engines.isEmpty()) {
      throw wrong(file, "names no engine: add one [engines.<name>] table an engine");
    }
    Map<String, CliqueClient> clients = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> engine : engines.properties()) {
      clients.putIfAbsent(
          engine.getKey(), client(file, engine.getKey(), engine.getValue(), environment));
    }
    try {
      return CliqueClient.overEngines(clients);
    } catch (IllegalArgumentException badName) {
      throw wrong(file, badName.getMessage());
    }
  }

  private static CliqueClient client(
      Path file, String name, JsonNode entry, Map<String, String> environment) throws IOException {
    String where = "[engines." + name + "]";
    if (!entry.isObject()) {
      throw wrong(file, where + " must be a table with url and token_env or token_file");
    }
    for (Iterator<String> keys = entry.fieldNames(); keys.hasNext(); ) {
      String key = keys.next();
      if (!KEYS.contains(key)) {
        throw wrong(
            file,
            where
                + " has `"
                + key
                + "`: its keys are url, token_env, token_file, timeout, certificate_sha256,"
                + " allow_plain_http");
      }
    }
    String url = text(file, where, entry, "url");
    if (url == null) {
      throw wrong(file, where + " has no url: add e.g. url = \"http://127.0.0.1:3200\"");
    }
    String token = token(file, where, entry, environment);
    CliqueClient.Builder builder;
    try {
      builder = CliqueClient.builder().token(token).baseUrl(url);
      String pin = text(file, where, entry, "certificate_sha256");
      if (pin != null) {
        builder.certificateSha256(pin);
      }
      JsonNode plain = entry.get("allow_plain_http");
      if (plain != null && !plain.isBoolean()) {
        throw wrong(file, where + " allow_plain_http must be true or false");
      }
      builder.allowPlainHttp(plain != null && plain.booleanValue());
    } catch (IllegalArgumentException e) {
      if (e.getMessage().startsWith(file.toString())) {
        throw e;
      }
      throw wrong(file, where + ": " + e.getMessage()); // the builder's, token-free
    }
    JsonNode timeout = entry.get("timeout");
    if (timeout == null) {
      builder.timeout(DEFAULT_TIMEOUT);
    } else if (!timeout.isNumber() || timeout.doubleValue() <= 0 || timeout.doubleValue() > 3600) {
      throw wrong(file, where + " timeout must be a number of seconds above 0, at most 3600");
    } else {
      builder.timeout(Duration.ofMillis(Math.max(1, Math.round(timeout.doubleValue() * 1000))));
    }
    try {
      return builder.build();
    } catch (IllegalArgumentException e) {
      // Plain HTTP refused: the client says what to do, in its builder's words; here it is a key.
      throw wrong(
          file,
          where
              + ": "
              + e.getMessage()
                  .replace(
                      "CliqueClient.Builder.allowPlainHttp(true)",
                      "allow_plain_http = true in " + where));
    }
  }

  /** Its token, from exactly one of {@code token_env} and {@code token_file}. */
  private static String token(
      Path file, String where, JsonNode entry, Map<String, String> environment) throws IOException {
    String variable = text(file, where, entry, "token_env");
    String tokenFile = text(file, where, entry, "token_file");
    if ((variable == null) == (tokenFile == null)) {
      throw wrong(
          file,
          where
              + " needs exactly one of token_env (an environment variable holding its token) and"
              + " token_file (a 0600 file holding it)");
    }
    if (variable != null) {
      String token = environment.get(variable);
      if (token == null || token.isBlank()) {
        throw wrong(
            file,
            where
                + " takes its token from "
                + variable
                + ", which is not set: set it to a read-only token of that engine"
                + " (`clique token create <name> --read-only` there)");
      }
      return token.strip();
    }
    Path path = file.resolveSibling(tokenFile);
    PrivateFile.require(
        path,
        "token file of " + where,
        "write that engine's read-only token in it, alone on one line, mode 0600");
    String content = Files.readString(path, StandardCharsets.UTF_8).strip();
    if (content.isEmpty() || content.contains("\n")) {
      throw wrong(file, where + "'s token file " + path + " must hold one token on one line");
    }
    return content;
  }

  private static String text(Path file, String where, JsonNode entry, String key) {
    JsonNode value = entry.get(key);
    if (value == null) {
      return null;
    }
    if (!value.isTextual() || value.textValue().isBlank()) {
      throw wrong(file, where + " " + key + " must be a non-empty string");
    }
    return value.textValue().strip();
  }

  private static IllegalArgumentException wrong(Path file, String what) {
    return new IllegalArgumentException(file + ": " + what);
  }

  private static String firstLine(IOException e) {
    String message = String.valueOf(e.getMessage());
    int end = message.indexOf('\n');
    return end < 0 ? message : message.substring(0, end);
  }
}
