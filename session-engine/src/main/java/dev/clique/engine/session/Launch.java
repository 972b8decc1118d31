package dev.clique.engine.session;

import static dev.clique.engine.session.SessionException.badRequest;

import dev.clique.engine.catalogue.CliCatalogue;
import dev.clique.engine.catalogue.CliDefinition;
import dev.clique.engine.hooks.HookDialect;
import dev.clique.engine.tmux.HomeMark;
import dev.clique.engine.tmux.Tmux;
import dev.clique.engine.token.MintedToken;
import dev.clique.engine.token.Scope;
import dev.clique.engine.token.TokenStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a session's CLI in a pane of clique's own server: checks what a new session asks for,
 * builds the CLI's argument list from the catalogue and the pane's environment (the session's
 * marker, the engine's URL, an attention token of the session's own for its hooks), marks its tmux
 * session as this home's, and checks that the pane runs in the session's folder.
 */
final class Launch {
  private static final Logger log = LoggerFactory.getLogger(Launch.class);

  /** Longest session name accepted: a name is a label, not a store. */
  static final int MAX_NAME = 200;

  /** Longest folder accepted: Linux's PATH_MAX. */
  static final int MAX_PATH = 4096;

  /** How long a new pane may take to be in its folder: 10 looks 20 ms apart. */
  private static final int START_CHECKS = 10;

  private static final long START_CHECK_MILLIS = 20;

  private final CliCatalogue catalogue;
  private final TokenStore tokens;
  private final Tmux tmux;
  private final SessionProcesses processes;
  private final Clock clock;
  private final Supplier<String> engineUrl;
  private final Path hookFiles;
  private final HomeMark home;

  /**
   * @param home the home each session is marked as belonging to, in tmux
   * @param hookFiles where hooks a CLI reads from files are written, in clique's own home: a file
   *     per session that the pane's environment names, or the folder {@code {hook_settings}} names;
   *     readable by their owner only
   */
  Launch(
      CliCatalogue catalogue,
      TokenStore tokens,
      Tmux tmux,
      SessionProcesses processes,
      Clock clock,
      Supplier<String> engineUrl,
      HomeMark home,
      Path hookFiles) {
    this.catalogue = catalogue;
    this.tokens = tokens;
    this.tmux = tmux;
    this.processes = processes;
    this.clock = clock;
    this.engineUrl = engineUrl;
    this.hookFiles = hookFiles;
    this.home = home;
  }

  /**
   * Starts the session {@code request} asks for, once it is checked.
   *
   * @return its record, for the caller to store
   */
  SessionRecord create(NewSession request) throws SessionException {
    if (request.cli() == null || request.cli().isBlank()) {
      throw badRequest("cli is required");
    }
    if (request.cwd() == null || request.cwd().isBlank()) {
      throw badRequest("cwd is required");
    }
    CliDefinition cli =
        catalogue
            .find(request.cli())
            .orElseThrow(
                () ->
                    badRequest(
                        "unknown CLI: "
                            + request.cli()
                            + " (known: "
                            + String.join(
                                ", ", catalogue.all().stream().map(CliDefinition::id).toList())
                            + ")"));
    Path binary =
        catalogue
            .resolve(cli)
            .orElseThrow(
                () ->
                    badRequest(
                        "CLI "
                            + cli.id()
                            + " is not installed: `"
                            + cli.command()
                            + "` was not found on PATH"));
    Path cwd = directory(request.cwd());
    if (!cwd.isAbsolute()) {
      throw badRequest("cwd must be an absolute path: " + request.cwd());
    }
    if (!Files.exists(cwd)) {
      throw badRequest("the folder " + request.cwd() + " does not exist");
    }
    if (!Files.isDirectory(cwd)) {
      throw badRequest(
          request.cwd() + " is " + (Files.isRegularFile(cwd) ? "a file" : "not a folder"));
    }
    String mode = request.mode() == null || request.mode().isBlank() ? null : request.mode();
    if (mode != null && !cli.modes().contains(mode)) {
      throw badRequest(
          "CLI " + cli.id() + " has no mode " + mode + " (modes: " + cli.modes() + ")");
    }
    String id = UUID.randomUUID().toString();
    String name =
        request.name() == null || request.name().isBlank()
            ? cli.id() + "-" + id.substring(0, 4)
            : request.name().strip();
    if (name.length() > MAX_NAME) {
      throw badRequest("name is longer than " + MAX_NAME + " characters");
    }
    if (name.chars().anyMatch(Character::isISOControl)) {
      throw badRequest("name must not contain control characters");
    }
    SessionRecord record =
        new SessionRecord(
            id, name, cli.id(), cwd.toString(), null, mode, clock.millis() / 1000.0, null);
    start(record, cli, binary, false);
    return record;
  }

  /**
   * Starts a stopped session's CLI again under the same id, resuming its conversation when the
   * record names one; the dead pane tmux kept of its last run goes first.
   */
  void relaunch(SessionRecord record) throws SessionException {
    CliDefinition cli =
        catalogue.find(record.cli()).orElseThrow(() -> badRequest("unknown CLI: " + record.cli()));
    Path binary =
        catalogue
            .resolve(cli)
            .orElseThrow(() -> badRequest("CLI " + cli.id() + " is not installed"));
    processes.end(record.id());
    start(record, cli, binary, true);
  }

  /**
   * Revokes the session's own tokens (its hooks'), saying in the log when they could not be, and
   * deletes its hook settings file, if it has one.
   */
  void revokeTokens(String id) {
    try {
      tokens.revokeSession(id);
    } catch (IOException e) {
      log.warn("could not revoke the tokens of session {}: {}", id, e.getMessage());
    }
    try {
      Files.deleteIfExists(hookFile(id));
    } catch (IOException | InvalidPathException e) {
      log.warn("could not delete the hook settings of session {}: {}", id, e.getMessage());
    }
  }

  private Path hookFile(String id) {
    return hookFiles.resolve(id + ".json");
  }

  /**
   * Writes the session's hook settings where the CLI is told to read them: the folder and the file
   * its owner's only, written whole before the CLI can read it.
   */
  private Path writeHookFile(String id, String settings) throws IOException {
    Files.createDirectories(hookFiles);
    Files.setPosixFilePermissions(hookFiles, PosixFilePermissions.fromString("rwx------"));
    Path file = hookFile(id);
    Path partial = hookFiles.resolve(id + ".json.partial");
    Files.deleteIfExists(partial);
    Files.createFile(
        partial,
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(partial, settings);
    Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    return file;
  }

  private void start(SessionRecord record, CliDefinition cli, Path binary, boolean resume)
      throws SessionException {
    Map<String, String> values = new LinkedHashMap<>();
    values.put("id", record.id());
    values.put("name", record.name());
    values.put("cwd", record.cwd());
    values.put("mode", record.mode() == null ? "" : record.mode());
    values.put(
        "cli_session_id", record.cliSessionId() == null ? record.id() : record.cliSessionId());
    HookDialect.Install hooks = hooks(cli, record.id());
    values.put("hook_settings", hooks.argument());
    boolean resuming = resume && record.cliSessionId() != null;
    List<String> argv = cli.launchArgv(binary, values, resuming);
    Map<String, String> env = new LinkedHashMap<>();
    env.put(SessionWatcher.SESSION_MARKER, record.id());
    env.put("CLIQUE_URL", engineUrl.get());
    try {
      tokens.revokeSession(record.id());
      MintedToken hook =
          tokens.create(
              "hook:" + record.id().substring(0, 8), Set.of(Scope.ATTENTION), record.id());
      env.put("CLIQUE_ATTENTION_TOKEN", hook.secret());
      env.putAll(hooks.environment());
      if (hooks.file() != null) {
        env.put(
            hooks.file().variable(), writeHookFile(record.id(), hooks.file().content()).toString());
      }
      tmux.newSession(record.id(), Path.of(record.cwd()), argv, env, home);
    } catch (IOException e) {
      revokeTokens(record.id());
      throw new SessionException(
          SessionException.Kind.FAILED, "the session could not be started: " + e.getMessage(), e);
    }
    requireStartedIn(record);
  }

  /** How this run of the CLI is given its hooks: none for a CLI that has none clique reads. */
  private HookDialect.Install hooks(CliDefinition cli, String id) throws SessionException {
    Optional<HookDialect> dialect = HookDialect.named(cli.hooks());
    if (dialect.isEmpty()) {
      return HookDialect.Install.NONE;
    }
    try {
      return dialect.get().install(engineUrl.get() + "/api/sessions/" + id + "/hook", hookFiles);
    } catch (IOException | UncheckedIOException e) {
      throw new SessionException(
          SessionException.Kind.FAILED,
          "the hooks of " + cli.id() + " could not be written: " + e.getMessage(),
          e);
    }
  }

  /**
   * The pane must run where the record says: a folder that tmux read some other way (a format, a
   * separator) would put the CLI elsewhere than {@code /api/state} shows. A pane that has already
   * exited has nothing to check.
   */
  private void requireStartedIn(SessionRecord record) throws SessionException {
    Path started;
    Path wanted;
    try {
      wanted = Path.of(record.cwd()).toRealPath();
      started = tmux.workingDirectory(record.id());
      // The pane's process may be read between tmux's fork and its chdir: the server's folder.
      for (int i = 0; i < START_CHECKS && !started.equals(wanted); i++) {
        Thread.sleep(START_CHECK_MILLIS);
        started = tmux.workingDirectory(record.id());
      }
    } catch (IOException e) { // the pane exited, or the folder went away: nothing to compare
      return;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    if (!started.equals(wanted)) {
      processes.end(record.id());
      revokeTokens(record.id());
      throw badRequest("tmux started the session in " + started + ", not in cwd " + record.cwd());
    }
  }

  /** The requested folder as a path; a value no path can be is the client's mistake. */
  private static Path directory(String cwd) throws SessionException {
    if (cwd.length() > MAX_PATH) {
      throw badRequest("cwd is longer than " + MAX_PATH + " characters");
    }
    try {
      return Path.of(cwd);
    } catch (InvalidPathException e) {
      throw badRequest("cwd is not a usable path: " + e.getReason());
    }
  }
}
