package dev.clique.engine.discovery;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.json.EngineJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Claude Code's registry of its running processes: each interactive one writes {@code
 * <config>/sessions/<pid>.json} within a second of its start (its pid, its start in clock ticks as
 * {@code /proc} has it, {@code procStart}, its session id, its version), then keeps {@code status}
 * there ({@code busy}, {@code idle}, or {@code waiting} with {@code waitingFor}, e.g. {@code
 * permission prompt}), and removes the file as it exits. A file is believed only as far as {@code
 * /proc} confirms it: the caller checks the pid's start and command.
 */
final class ClaudeRegistry {
  /** A registry file is a few hundred bytes: one larger than this is not one. */
  static final int MAX_BYTES = 64 * 1024;

  private static final ObjectMapper JSON = EngineJson.mapper();
  private static final Pattern NAME = Pattern.compile("([1-9][0-9]{0,9})\\.json");

  /**
   * One process's entry.
   *
   * @param procStart its start in clock ticks since boot, -1 where the file does not say
   * @param status {@code busy}, {@code idle}, {@code waiting}, or null where the file says none yet
   * @param waitingFor what a {@code waiting} process waits for, in Claude Code's words, or null
   * @param statusSince unix milliseconds of the status, 0 where the file does not say
   */
  record Entry(
      long pid,
      long procStart,
      String sessionId,
      String status,
      String waitingFor,
      long statusSince,
      String version) {}

  /** Why a file is not an entry: said once in the log, never thrown past the discovery. */
  static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message);
    }
  }

  private ClaudeRegistry() {}

  /** The pid a registry file's name gives, if it is one of the registry's names. */
  static Optional<Long> pidOf(Path file) {
    Matcher m = NAME.matcher(file.getFileName().toString());
    return m.matches() ? Optional.of(Long.parseLong(m.group(1))) : Optional.empty();
  }

  /** The entry of process {@code pid} in the registry folder {@code dir}. */
  static Entry read(Path dir, long pid) throws Refused {
    Path file = dir.resolve(pid + ".json");
    if (Files.isSymbolicLink(file)) {
      throw new Refused(file + " is a symbolic link: not followed");
    }
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      throw new Refused(file + " is not a regular file");
    }
    byte[] bytes;
    try (InputStream in =
        Files.newInputStream(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      bytes = in.readNBytes(MAX_BYTES + 1);
    } catch (IOException e) {
      throw new Refused(file + " cannot be read: " + e.getMessage());
    }
    if (bytes.length > MAX_BYTES) {
      throw new Refused(file + " is over " + MAX_BYTES + " bytes: not a registry entry");
    }
    JsonNode node;
    try {
      node = JSON.readTree(bytes);
    } catch (JsonEOFException e) {
      throw new Refused(file + " is cut short (" + bytes.length + " bytes)");
    } catch (JsonProcessingException e) {
      throw new Refused(file + " is not JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new Refused(file + " cannot be read: " + e.getMessage());
    }
    if (node == null || !node.isObject()) {
      throw new Refused(file + " is not a JSON object");
    }
    if (!node.path("pid").canConvertToLong() || node.path("pid").asLong() != pid) {
      throw new Refused(file + " names pid " + node.path("pid") + ", not " + pid);
    }
    return new Entry(
        pid,
        number(node.path("procStart")),
        text(node, "sessionId"),
        text(node, "status"),
        text(node, "waitingFor"),
        Math.max(0, number(node.path("statusUpdatedAt"))),
        text(node, "version"));
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.path(field);
    return value.isTextual() && !value.asText().isBlank() ? value.asText() : null;
  }

  /** A whole number, written as a number or a string of digits ({@code procStart} is one); -1. */
  private static long number(JsonNode value) {
    if (value.isIntegralNumber() && value.canConvertToLong()) {
      return value.asLong();
    }
    if (value.isTextual() && value.asText().matches("[0-9]{1,18}")) {
      return Long.parseLong(value.asText());
    }
    return -1;
  }
}
