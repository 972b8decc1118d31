package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Gemini CLI writes {@code tmp/<project>/chats/session-<UTC minute>-<first 8 of id>.jsonl} (older
 * versions: {@code .json}) under its {@code .gemini} directory; the first line holds {@code
 * sessionId} and {@code startTime}. The project directory is the sha256 of the working directory
 * (older versions) or a short name whose {@code .project_root} file, or the {@code projects.json}
 * registry, names the working directory. A session is found by its CLI id when known, or else as
 * the project's newest session that started after clique created it.
 */
final class GeminiTranscriptLocator implements TranscriptLocator {

  static final Duration START_SLACK = Duration.ofSeconds(5);

  /** How long the project directories of a working directory are trusted before a new look. */
  static final Duration PROJECTS_TTL = Duration.ofSeconds(30);

  static final String SESSION_ID = "/sessionId";
  static final String STARTED = "/startTime";
  private static final List<String> HEAD = List.of(SESSION_ID, STARTED);

  private static final int MAX_SMALL_FILE = 256 * 1024;
  private static final DateTimeFormatter NAME_MINUTE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm");

  private record Projects(List<Path> dirs, Instant seen) {}

  private record Session(Path file, Instant start) {}

  private final Path geminiHome;
  private final Path tmp;
  private final Clock clock;
  private final HeadFields heads;
  private final Map<String, Path> byId = new ConcurrentHashMap<>();
  private final Map<Path, Projects> projects = new ConcurrentHashMap<>();

  GeminiTranscriptLocator(Path geminiHome, Clock clock, HeadFields heads) {
    this.geminiHome = geminiHome;
    this.tmp = geminiHome.resolve("tmp");
    this.clock = clock;
    this.heads = heads;
  }

  @Override
  public Optional<Path> locate(TranscriptRequest request) throws IOException {
    if (!Files.isDirectory(tmp)) {
      return Optional.empty();
    }
    List<Path> dirs = request.cwd() == null ? List.of() : projectDirs(request.cwd());
    String id = request.cliSessionId();
    if (id != null) {
      Optional<Path> withId = byId(id, dirs);
      if (withId.isPresent() || request.cwd() == null) {
        return withId;
      }
    }
    if (request.created() == null) {
      return Optional.empty();
    }
    Instant notBefore = request.created().minus(START_SLACK);
    Session newest = null;
    for (Path dir : dirs) {
      for (Path file : sessionFiles(dir)) {
        Instant named = nameMinute(file);
        if (named != null && named.plus(Duration.ofMinutes(1)).isBefore(notBefore)) {
          continue; // started before the session, by its name: no need to read its head
        }
        Instant start = start(file);
        if (start == null || start.isBefore(notBefore)) {
          continue;
        }
        if (newest == null
            || start.isAfter(newest.start())
            || (start.equals(newest.start()) && isJsonl(file))) {
          newest = new Session(file, start);
        }
      }
    }
    return Optional.ofNullable(newest).map(Session::file);
  }

  private Optional<Path> byId(String id, List<Path> dirs) throws IOException {
    Path known = byId.get(id);
    if (known != null && Files.isRegularFile(known)) {
      return Optional.of(known);
    }
    List<Path> searched = new ArrayList<>(dirs);
    Optional<Path> found = withId(id, searched);
    if (found.isEmpty()) {
      // The working directory may have moved or be unknown: look in every project by name.
      List<Path> others = new ArrayList<>();
      try (DirectoryStream<Path> all = Files.newDirectoryStream(tmp, Files::isDirectory)) {
        for (Path dir : all) {
          if (!searched.contains(dir)) {
            others.add(dir);
          }
        }
      }
      found = withId(id, others);
    }
    found.ifPresent(file -> byId.put(id, file));
    return found;
  }

  private Optional<Path> withId(String id, List<Path> dirs) throws IOException {
    String shortId = id.length() > 8 ? id.substring(0, 8) : id;
    Path match = null;
    for (Path dir : dirs) {
      for (Path file : sessionFiles(dir)) {
        String name = file.getFileName().toString();
        if (name.contains(shortId)
            && id.equals(head(file).get(SESSION_ID))
            && (match == null || isJsonl(file))) {
          match = file; // a resumed .json session continues in a .jsonl of the same name
        }
      }
    }
    return Optional.ofNullable(match);
  }

  private List<Path> sessionFiles(Path projectDir) throws IOException {
    Path chats = projectDir.resolve("chats");
    if (!Files.isDirectory(chats)) {
      return List.of();
    }
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> all = Files.newDirectoryStream(chats, "session-*.{jsonl,json}")) {
      for (Path file : all) {
        files.add(file);
      }
    }
    return files;
  }

  /** The project directories that may hold this working directory's chats. */
  List<Path> projectDirs(Path cwd) throws IOException {
    Projects known = projects.get(cwd);
    Instant now = clock.instant();
    if (known != null && known.seen().plus(PROJECTS_TTL).isAfter(now)) {
      return known.dirs();
    }
    SameDirectory same = new SameDirectory(cwd);
    Set<Path> dirs = new LinkedHashSet<>();
    for (String spelling : same.spellings()) {
      String hash = sha256(spelling);
      dirs.add(tmp.resolve(hash));
      dirs.add(tmp.resolve(hash.substring(0, 16)));
    }
    JsonNode registry = smallJson(geminiHome.resolve("projects.json"));
    if (registry != null) {
      for (String spelling : same.spellings()) {
        JsonNode slug = registry.path("projects").get(spelling);
        if (slug != null && slug.isTextual() && isPlainName(slug.textValue())) {
          dirs.add(tmp.resolve(slug.textValue()));
        }
      }
    }
    try (DirectoryStream<Path> all = Files.newDirectoryStream(tmp, Files::isDirectory)) {
      for (Path dir : all) {
        String owner = smallText(dir.resolve(".project_root"));
        if (owner != null && same.matches(owner.strip())) {
          dirs.add(dir);
        }
      }
    }
    List<Path> existing = new ArrayList<>();
    for (Path dir : dirs) {
      if (Files.isDirectory(dir)) {
        existing.add(dir);
      }
    }
    List<Path> result = List.copyOf(existing);
    projects.put(cwd, new Projects(result, now));
    return result;
  }

  private Map<String, String> head(Path file) {
    try {
      return heads.read(file, HEAD);
    } catch (IOException e) {
      return Map.of();
    }
  }

  private Instant start(Path file) {
    String value = head(file).get(STARTED);
    if (value == null) {
      return null;
    }
    try {
      return Instant.parse(value);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** {@code session-2026-08-01T10-00-6f1c2d3e.jsonl} started in that UTC minute. */
  static Instant nameMinute(Path file) {
    String name = file.getFileName().toString();
    String prefix = "session-";
    int length = "yyyy-MM-ddTHH-mm".length();
    if (name.length() < prefix.length() + length) {
      return null;
    }
    try {
      return LocalDateTime.parse(
              name.substring(prefix.length(), prefix.length() + length), NAME_MINUTE)
          .toInstant(ZoneOffset.UTC);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static boolean isJsonl(Path file) {
    return file.getFileName().toString().endsWith(".jsonl");
  }

  private static boolean isPlainName(String name) {
    return !name.isEmpty()
        && !name.equals(".")
        && !name.equals("..")
        && !name.contains("/")
        && !name.contains("\\");
  }

  static String sha256(String text) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  private static String smallText(Path file) {
    if (!Files.isRegularFile(file)) {
      return null;
    }
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      if (channel.size() > MAX_SMALL_FILE) {
        return null;
      }
      ByteBuffer buffer = ByteBuffer.allocate((int) channel.size());
      while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
        // fill
      }
      return new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return null;
    }
  }

  private static JsonNode smallJson(Path file) {
    String text = smallText(file);
    if (text == null) {
      return null;
    }
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    return JsonLine.parse(bytes, 0, bytes.length);
  }
}
