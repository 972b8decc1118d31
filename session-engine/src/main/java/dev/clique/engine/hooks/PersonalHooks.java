package dev.clique.engine.hooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.engine.home.AtomicFile;
import dev.clique.engine.home.CliqueHome;
import dev.clique.engine.home.FileLocks;
import dev.clique.engine.hooks.JsonText.Arr;
import dev.clique.engine.hooks.JsonText.Member;
import dev.clique.engine.hooks.JsonText.Obj;
import dev.clique.engine.hooks.JsonText.Scalar;
import dev.clique.engine.hooks.JsonText.Value;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * clique's hooks in a person's own settings of a CLI ({@code clique hooks install}), for the CLIs
 * they run themselves outside clique's sessions: each of the events the CLI's {@link HookDialect}
 * reads runs {@link HookRelay#toOperatorSocket}, which reports it to the engine of this home. No
 * token is written there.
 *
 * <p>The settings file is edited as text: clique's entries are inserted where they go and every
 * other byte stays as it was (comments, a trailing comma, key order, indentation). A file it cannot
 * read is refused with its name and why, never rewritten. What the file was is kept in the home
 * ({@code installed-hooks/<cli>.json}, 0600), so that {@link #remove} gives back the very bytes
 * when nobody changed the file since, and takes out only clique's entries when someone did. One
 * lock in the home keeps two clique processes from editing a file at once; each write is atomic and
 * keeps the file's mode.
 */
public final class PersonalHooks {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A settings file larger than this is no settings file. */
  static final long MAX_SETTINGS_BYTES = 4 << 20;

  /** How long another clique process may hold the lock. */
  private static final Duration LOCK_LIMIT = Duration.ofSeconds(10);

  /** Seconds a CLI gives one hook: the relay's own limit is shorter. */
  private static final int TIMEOUT_SECONDS = 5;

  /**
   * A CLI whose settings take clique's hooks.
   *
   * @param cli its catalogue id, which is its dialect's name
   * @param label its name for people
   * @param file its settings file
   */
  public record Target(String cli, String label, Path file) {
    /** The folder the CLI keeps its settings in: there when the CLI was run here. */
    public Path folder() {
      return file.getParent();
    }
  }

  private final CliqueHome home;
  private final List<Target> targets;

  /**
   * @param home the home whose engine the hooks report to
   * @param userHome the person's home folder
   * @param environment where {@code CLAUDE_CONFIG_DIR} may move Claude Code's folder
   */
  public PersonalHooks(CliqueHome home, Path userHome, Map<String, String> environment) {
    this.home = home;
    String claudeDir = environment.get("CLAUDE_CONFIG_DIR");
    Path claude =
        claudeDir == null || claudeDir.isBlank() ? userHome.resolve(".claude") : Path.of(claudeDir);
    this.targets =
        List.of(
            new Target("claude", "Claude Code", claude.resolve("settings.json")),
            new Target("qwen", "Qwen Code", userHome.resolve(".qwen/settings.json")));
  }

  /** The CLIs whose settings take clique's hooks, in order. */
  public List<Target> targets() {
    return targets;
  }

  /** The target of {@code cli} ({@code claude}, {@code qwen}), if its settings take hooks. */
  public Optional<Target> target(String cli) {
    return targets.stream().filter(t -> t.cli().equals(cli)).findFirst();
  }

  /**
   * Adds clique's hooks to {@code target}'s settings.
   *
   * @return what was changed, in words, or that nothing was
   * @throws IOException naming the file and why, when it is refused or cannot be written
   */
  public String install(Target target) throws IOException {
    return underLock(() -> installLocked(target));
  }

  private String installLocked(Target target) throws IOException {
    Path file = target.file();
    if (!Files.isDirectory(target.folder())) {
      throw new IOException(
          target.label()
              + "'s folder "
              + target.folder()
              + " is not there: it has not run here, or keeps its settings elsewhere");
    }
    byte[] before = read(file);
    String command = HookRelay.toOperatorSocket(target.cli(), home.operatorSocket());
    Installed edit = withHooks(file, before == null ? null : text(file, before), target, command);
    if (edit.events().isEmpty()) {
      return target.label() + ": clique's hooks are already in " + file + "; nothing changed";
    }
    byte[] after = edit.text().getBytes(StandardCharsets.UTF_8);
    Optional<Record> earlier = record(target);
    Record record =
        earlier
            .filter(r -> r.file().equals(file.toString()))
            .map(r -> new Record(r.file(), r.original(), sha256(after), r.createdHooks()))
            .orElse(new Record(file.toString(), before, sha256(after), edit.createdHooks()));
    keep(target, record); // first, so that a crash in between can still be undone
    write(file, after);
    return target.label()
        + ": added to "
        + file
        + " under \"hooks\": "
        + String.join(", ", edit.events())
        + ", each a command hook that sends the event to "
        + home.operatorSocket()
        + " (the original is kept in "
        + recordFile(target)
        + ")";
  }

  /**
   * Takes clique's hooks out of {@code target}'s settings: the file as it was before {@link
   * #install} when nobody changed it since, else only clique's entries taken out.
   *
   * @return what was changed, in words, or that nothing was
   */
  public String remove(Target target) throws IOException {
    return underLock(() -> removeLocked(target));
  }

  private String removeLocked(Target target) throws IOException {
    Path file = target.file();
    Optional<Record> record = record(target).filter(r -> r.file().equals(file.toString()));
    byte[] now = read(file);
    String said;
    if (record.isPresent() && now != null && sha256(now).equals(record.get().installedSha256())) {
      byte[] original = record.get().original();
      if (original == null) {
        Files.delete(file);
        said = target.label() + ": removed " + file + ", which clique had made";
      } else {
        write(file, original);
        said = target.label() + ": " + file + " is back as it was before clique's hooks";
      }
    } else if (now == null) {
      said = target.label() + ": " + file + " is not there; nothing to remove";
    } else {
      boolean createdHooks = record.map(Record::createdHooks).orElse(false);
      String edited = withoutHooks(file, text(file, now), createdHooks);
      if (edited.equals(text(file, now))) {
        said = target.label() + ": no hooks of clique's in " + file + "; nothing changed";
      } else {
        write(file, edited.getBytes(StandardCharsets.UTF_8));
        said =
            target.label()
                + ": took clique's hooks out of "
                + file
                + (record.isPresent() ? ", which was changed since; the rest left as it is" : "");
      }
    }
    if (record.isPresent()) { // a record of another file (CLAUDE_CONFIG_DIR moved) is kept for it
      Files.deleteIfExists(recordFile(target));
      Files.deleteIfExists(AtomicFile.backupOf(recordFile(target)));
    }
    return said;
  }

  /** Whether clique's hooks are in {@code target}'s settings, in words. */
  public String status(Target target) {
    Path file = target.file();
    try {
      byte[] bytes = read(file);
      if (bytes == null) {
        return target.label() + ": not installed (" + file + " is not there)";
      }
      Value root = JsonText.parse(text(file, bytes));
      List<String> events = events(target);
      String own = HookRelay.toOperatorSocket(target.cli(), home.operatorSocket());
      List<String> present = new ArrayList<>();
      boolean ours = false;
      if (root instanceof Obj obj && obj.member("hooks") != null) {
        Value hooks = obj.member("hooks").value();
        for (String event : events) {
          if (hooks instanceof Obj h
              && h.member(event) != null
              && h.member(event).value() instanceof Arr groups
              && groups.elements().stream().anyMatch(PersonalHooks::isClique)) {
            present.add(event);
            ours |= groups.elements().stream().anyMatch(g -> commands(g).contains(own));
          }
        }
      }
      if (present.isEmpty()) {
        return target.label() + ": not installed in " + file;
      }
      String whose =
          ours
              ? ", reporting to " + home.operatorSocket()
              : ", reporting to another clique home's engine or in an older clique's words"
                  + " (`clique hooks remove`, then `install`, makes them this home's)";
      return target.label()
          + (present.size() == events.size()
              ? ": installed in " + file
              : ": partly installed in " + file + " (" + String.join(", ", present) + ")")
          + whose;
    } catch (IOException | IllegalArgumentException e) {
      return target.label() + ": " + file + " cannot be read: " + e.getMessage();
    }
  }

  /** The events of {@code target}'s CLI that say something of its state. */
  static List<String> events(Target target) {
    return target.cli().equals("qwen") ? QwenHooks.EVENTS : ClaudeHooks.EVENTS;
  }

  private static List<String> toolEvents(Target target) {
    return target.cli().equals("qwen") ? QwenHooks.TOOL_EVENTS : ClaudeHooks.TOOL_EVENTS;
  }

  /** What {@link #install} writes: the new text, the events it added, whether "hooks" is new. */
  record Installed(String text, List<String> events, boolean createdHooks) {}

  /** {@code text} (null: no file) with clique's hook added for each event that lacks it. */
  static Installed withHooks(Path file, String text, Target target, String command)
      throws IOException {
    List<String> events = events(target);
    ObjectNode all = JSON.createObjectNode();
    for (String event : events) {
      all.putArray(event).add(group(event, target, command));
    }
    if (text == null || text.isBlank()) {
      ObjectNode settings = JSON.createObjectNode();
      settings.set("hooks", all);
      return new Installed(pretty(settings, "", "  ") + "\n", events, true);
    }
    Obj root = root(file, text);
    Edits edits = new Edits(text);
    Member hooks = root.member("hooks");
    if (hooks == null) {
      edits.insert(root, "hooks", all);
      return new Installed(edits.apply(), events, true);
    }
    if (!(hooks.value() instanceof Obj hookObj)) {
      throw refused(file, "its \"hooks\" is not an object");
    }
    ObjectNode missing = JSON.createObjectNode();
    List<String> added = new ArrayList<>();
    for (String event : events) {
      Member member = hookObj.member(event);
      if (member == null) {
        missing.set(event, all.get(event));
        added.add(event);
      } else if (!(member.value() instanceof Arr groups)) {
        throw refused(file, "its \"hooks\"." + event + " is not an array");
      } else if (groups.elements().stream().noneMatch(PersonalHooks::isClique)) {
        edits.insert(groups, null, all.get(event).get(0));
        added.add(event);
      }
    }
    missing.properties().forEach(e -> edits.insert(hookObj, e.getKey(), e.getValue()));
    return new Installed(edits.apply(), added, false);
  }

  /** {@code text} without clique's groups, and without an event or "hooks" they alone made. */
  static String withoutHooks(Path file, String text, boolean createdHooks) throws IOException {
    String current = text;
    while (true) {
      Obj root = root(file, current);
      Member hooks = root.member("hooks");
      if (hooks == null || !(hooks.value() instanceof Obj hookObj)) {
        return current;
      }
      String next = null;
      for (int m = 0; m < hookObj.members().size() && next == null; m++) {
        if (!(hookObj.members().get(m).value() instanceof Arr groups)) {
          continue;
        }
        List<Value> elements = groups.elements();
        long ours = elements.stream().filter(PersonalHooks::isClique).count();
        if (ours > 0 && ours == elements.size()) {
          next = deleteMember(current, hookObj, m);
        } else {
          for (int g = 0; g < elements.size() && next == null; g++) {
            if (isClique(elements.get(g))) {
              next = delete(current, groups, starts(groups), g);
            }
          }
        }
      }
      if (next == null) {
        return createdHooks && hookObj.members().isEmpty()
            ? deleteMember(current, root, root.members().indexOf(hooks))
            : current;
      }
      current = next;
    }
  }

  /** A group of clique's: one whose hooks run a command that reports to an engine's socket. */
  private static boolean isClique(Value group) {
    return commands(group).stream().anyMatch(c -> c.contains(HookRelay.OPERATOR_URL));
  }

  /** The commands of a hook group's hooks. */
  private static List<String> commands(Value group) {
    List<String> commands = new ArrayList<>();
    if (group instanceof Obj obj
        && obj.member("hooks") != null
        && obj.member("hooks").value() instanceof Arr hooks) {
      for (Value hook : hooks.elements()) {
        if (hook instanceof Obj h
            && h.member("command") != null
            && h.member("command").value() instanceof Scalar command) {
          commands.add(command.text());
        }
      }
    }
    return commands;
  }

  private static JsonNode group(String event, Target target, String command) {
    ObjectNode group = JSON.createObjectNode();
    if (toolEvents(target).contains(event)) {
      group.put("matcher", "*");
    }
    ObjectNode hook = group.putArray("hooks").addObject();
    hook.put("type", "command");
    hook.put("command", command);
    hook.put("timeout", TIMEOUT_SECONDS);
    return group;
  }

  private static Obj root(Path file, String text) throws IOException {
    Value root;
    try {
      root = JsonText.parse(text);
    } catch (IllegalArgumentException e) {
      throw refused(file, "it is not JSON clique can read (" + e.getMessage() + ")");
    }
    if (!(root instanceof Obj obj)) {
      throw refused(file, "it is not a JSON object");
    }
    return obj;
  }

  private static IOException refused(Path file, String why) {
    return new IOException(file + " was left as it is: " + why);
  }

  private static String deleteMember(String text, Obj obj, int index) {
    List<Integer> starts = obj.members().stream().map(Member::keyStart).toList();
    List<Value> values = obj.members().stream().map(Member::value).toList();
    return delete(text, new Arr(obj.start(), obj.end(), values), starts, index);
  }

  private static List<Integer> starts(Arr arr) {
    return arr.elements().stream().map(Value::start).toList();
  }

  /**
   * {@code text} without the {@code index}th item of {@code container} (its values, each starting
   * at {@code starts}), and the comma that separated it.
   */
  private static String delete(String text, Arr container, List<Integer> starts, int index) {
    List<Value> items = container.elements();
    int from;
    int to;
    if (index + 1 < items.size()) {
      from = starts.get(index);
      to = starts.get(index + 1);
    } else if (index > 0) {
      from = items.get(index - 1).end();
      to = items.get(index).end();
    } else {
      from = container.start() + 1;
      to = items.get(index).end();
      int after = to;
      while (after < text.length() && Character.isWhitespace(text.charAt(after))) {
        after++;
      }
      if (after < text.length() && text.charAt(after) == ',') {
        to = after + 1;
      }
    }
    return text.substring(0, from) + text.substring(to);
  }

  /** Insertions into a text, applied from the end so that each offset still holds. */
  private static final class Edits {
    private final String text;
    private final String newline;
    private final String unit;
    private final List<Map.Entry<Integer, String>> inserts = new ArrayList<>();

    Edits(String text) {
      this.text = text;
      this.newline = text.contains("\r\n") ? "\r\n" : "\n";
      Obj root = (Obj) JsonText.parse(text);
      String first = root.members().isEmpty() ? "" : indentBefore(root.members().get(0).keyStart());
      this.unit = first == null || first.isEmpty() ? "  " : first;
    }

    /** {@code value} (under {@code key} in an object) after the last item of {@code container}. */
    void insert(Value container, String key, JsonNode value) {
      List<Integer> starts;
      List<Value> values;
      if (container instanceof Obj obj) {
        starts = obj.members().stream().map(Member::keyStart).toList();
        values = obj.members().stream().map(Member::value).toList();
      } else {
        starts = starts((Arr) container);
        values = ((Arr) container).elements();
      }
      String name = key == null ? "" : JSON.getNodeFactory().textNode(key) + ": ";
      if (!values.isEmpty()) {
        String indent = indentBefore(starts.get(starts.size() - 1));
        int at = values.get(values.size() - 1).end();
        inserts.add(
            Map.entry(
                at,
                indent == null
                    ? ", " + name + value
                    : "," + newline + indent + name + lines(pretty(value, indent, unit))));
        return;
      }
      String outer = indentOf(container.start());
      int at = container.start() + 1;
      inserts.add(
          Map.entry(
              at,
              text.contains("\n")
                  ? newline
                      + outer
                      + unit
                      + name
                      + lines(pretty(value, outer + unit, unit))
                      + newline
                      + outer
                  : name + value));
    }

    String apply() {
      StringBuilder out = new StringBuilder(text);
      // From the end, and at one offset the last first, so that they read in the order made.
      List<Map.Entry<Integer, String>> order = new ArrayList<>(inserts);
      Collections.reverse(order);
      order.sort(Map.Entry.<Integer, String>comparingByKey().reversed()); // stable
      order.forEach(e -> out.insert(e.getKey(), e.getValue()));
      return out.toString();
    }

    private String lines(String pretty) {
      return newline.equals("\n") ? pretty : pretty.replace("\n", newline);
    }

    /** The white space before {@code at} on its line, or null when something else is there. */
    private String indentBefore(int at) {
      int lineStart = text.lastIndexOf('\n', at - 1) + 1;
      String before = text.substring(lineStart, at);
      return before.isBlank() ? before : null;
    }

    /** The white space a line starts with, of the line {@code at} is on. */
    private String indentOf(int at) {
      int lineStart = text.lastIndexOf('\n', at - 1) + 1;
      int end = lineStart;
      while (end < at && (text.charAt(end) == ' ' || text.charAt(end) == '\t')) {
        end++;
      }
      return text.substring(lineStart, end);
    }
  }

  /** {@code value} as JSON.stringify writes it with an indent of {@code unit}. */
  static String pretty(JsonNode value, String indent, String unit) {
    if (value.isObject() && !value.isEmpty()) {
      StringBuilder out = new StringBuilder("{");
      String separator = "\n";
      for (var e : value.properties()) {
        out.append(separator)
            .append(indent)
            .append(unit)
            .append(JSON.getNodeFactory().textNode(e.getKey()))
            .append(": ")
            .append(pretty(e.getValue(), indent + unit, unit));
        separator = ",\n";
      }
      return out.append('\n').append(indent).append('}').toString();
    }
    if (value.isArray() && !value.isEmpty()) {
      StringBuilder out = new StringBuilder("[");
      String separator = "\n";
      for (JsonNode element : value) {
        out.append(separator)
            .append(indent)
            .append(unit)
            .append(pretty(element, indent + unit, unit));
        separator = ",\n";
      }
      return out.append('\n').append(indent).append(']').toString();
    }
    return value.toString();
  }

  /** What the home keeps of one install. */
  private record Record(
      String file, byte[] original, String installedSha256, boolean createdHooks) {}

  private Path recordFile(Target target) {
    return home.dir().resolve("installed-hooks").resolve(target.cli() + ".json");
  }

  private Optional<Record> record(Target target) throws IOException {
    Path file = recordFile(target);
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    JsonNode json = JSON.readTree(Files.readAllBytes(file));
    JsonNode original = json.path("original");
    return Optional.of(
        new Record(
            json.path("file").asText(),
            original.isTextual() ? Base64.getDecoder().decode(original.asText()) : null,
            json.path("installed_sha256").asText(),
            json.path("created_hooks").asBoolean()));
  }

  private void keep(Target target, Record record) throws IOException {
    ObjectNode json = JSON.createObjectNode();
    json.put("file", record.file());
    if (record.original() == null) {
      json.putNull("original");
    } else {
      json.put("original", Base64.getEncoder().encodeToString(record.original()));
    }
    json.put("installed_sha256", record.installedSha256());
    json.put("created_hooks", record.createdHooks());
    AtomicFile.write(recordFile(target), JSON.writeValueAsBytes(json));
  }

  private interface Edit {
    String run() throws IOException;
  }

  /** {@code edit}, holding the lock every clique process takes to edit a person's settings. */
  private String underLock(Edit edit) throws IOException {
    // A file lock is the process's: threads of one process take turns on this monitor first.
    synchronized (PersonalHooks.class) {
      return underFileLock(edit);
    }
  }

  private String underFileLock(Edit edit) throws IOException {
    home.ensureExists();
    Path dir = home.dir().resolve("installed-hooks");
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      Files.createDirectories(
          dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }
    Path lockFile = dir.resolve(".lock");
    FileChannel channel =
        FileChannel.open(
            lockFile,
            Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try (channel) {
      FileLock lock = FileLocks.take(channel, false, lockFile, LOCK_LIMIT);
      try {
        return edit.run();
      } finally {
        lock.release();
      }
    }
  }

  /** The file's bytes, or null when there is none. */
  private static byte[] read(Path file) throws IOException {
    if (!Files.exists(file)) {
      return null;
    }
    if (!Files.isRegularFile(file)) {
      throw refused(file, "it is not a regular file");
    }
    if (Files.size(file) > MAX_SETTINGS_BYTES) {
      throw refused(file, "it is larger than " + (MAX_SETTINGS_BYTES >> 20) + " MiB");
    }
    return Files.readAllBytes(file);
  }

  private static String text(Path file, byte[] bytes) throws IOException {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw refused(file, "it is not UTF-8 text");
    }
  }

  /**
   * Writes the person's file atomically, where it really is (a settings file that is a link, as a
   * dotfile manager makes, stays one), with the mode it had (0600 for a new one).
   */
  private static void write(Path file, byte[] bytes) throws IOException {
    Path real = Files.exists(file) ? file.toRealPath() : file;
    Set<PosixFilePermission> mode =
        Files.exists(real)
            ? Files.getPosixFilePermissions(real)
            : PosixFilePermissions.fromString("rw-------");
    AtomicFile.replace(real, bytes, mode);
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
