package dev.clique.engine.catalogue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One CLI of the catalogue: how to start it and how to read it.
 *
 * @param transcript the transcript reader kind ({@code claude}, {@code codex}, {@code gemini}) or
 *     {@code ""} when clique cannot read its conversation
 * @param hooks whose hook events the engine understands from this CLI ({@code claude}, {@code
 *     gemini}, ...) or {@code ""}
 * @param waiting patterns of its pane's last lines that ask a person for permission
 * @param permissionDetail patterns of the line that says what a permission is for, its command in
 *     group 1 (or a tool in group 1 and its command in group 2)
 * @param questions patterns of its last lines while it asks a question of its own (a choice)
 * @param trust patterns of its first-run question whether to trust the folder
 * @param firstRun patterns of its other first-run screens (a theme, a sign-in, a key to approve)
 * @param usageLimits patterns of its last lines when its vendor's usage or rate limit stopped it; a
 *     group named {@code resets} holds when the limit lifts, in its words
 * @param working patterns of its last lines while it works ({@code esc to interrupt})
 * @param relaunch patterns of its last lines that say it is about to start itself anew (Gemini CLI
 *     after its folder was trusted): its process is replaced, and what it shows until then takes no
 *     input
 * @param answer patterns of a line that starts an answer: an error above one is history
 * @param titleWorking patterns of the terminal title it sets while it works (a spinner frame)
 * @param titleWaiting patterns of the title it sets while a person must answer it
 * @param packages the packages it is installed from ({@code @anthropic-ai/claude-code}): a process
 *     whose executable or script lies in one runs this CLI, whatever its name ({@code node
 *     .../cli.js}, a native binary of a platform package)
 * @param proven the versions of it its patterns were proven on by the real-CLI suites: a decision
 *     read from its screen on another version says so
 * @param generic the questions any program may ask ({@code [generic]}), read on its screen where
 *     its own patterns say nothing
 */
public record CliDefinition(
    String id,
    String label,
    String command,
    List<String> args,
    List<String> resumeArgs,
    List<String> modes,
    List<String> modeArgs,
    String transcript,
    String hooks,
    List<Pattern> waiting,
    List<Pattern> permissionDetail,
    List<Pattern> questions,
    List<Pattern> trust,
    List<Pattern> firstRun,
    List<Pattern> usageLimits,
    List<Pattern> errors,
    List<Pattern> working,
    List<Pattern> relaunch,
    List<Pattern> answer,
    List<Pattern> titleWorking,
    List<Pattern> titleWaiting,
    List<String> packages,
    List<String> proven,
    GenericQuestions generic) {

  public CliDefinition {
    args = List.copyOf(args);
    resumeArgs = List.copyOf(resumeArgs);
    modes = List.copyOf(modes);
    modeArgs = List.copyOf(modeArgs);
    waiting = List.copyOf(waiting);
    permissionDetail = List.copyOf(permissionDetail);
    questions = List.copyOf(questions);
    trust = List.copyOf(trust);
    firstRun = List.copyOf(firstRun);
    usageLimits = List.copyOf(usageLimits);
    errors = List.copyOf(errors);
    working = List.copyOf(working);
    relaunch = List.copyOf(relaunch);
    answer = List.copyOf(answer);
    titleWorking = List.copyOf(titleWorking);
    titleWaiting = List.copyOf(titleWaiting);
    packages = List.copyOf(packages);
    proven = List.copyOf(proven);
  }

  /**
   * Whether its terminal title tells its state: the title is then the authority on working, and its
   * ticking (which tmux counts as output) proves nothing.
   */
  public boolean hasTitleStates() {
    return !titleWorking.isEmpty() || !titleWaiting.isEmpty();
  }

  /** Whether this CLI has screens of its own that the pane is read for. */
  public boolean hasOwnScreens() {
    return !waiting.isEmpty()
        || !usageLimits.isEmpty()
        || !questions.isEmpty()
        || !trust.isEmpty()
        || !firstRun.isEmpty()
        || !working.isEmpty();
  }

  /** Whether this is a plain shell: who holds its terminal says whether a command runs. */
  public boolean isShell() {
    return "shell".equals(id);
  }

  public boolean hasModes() {
    return !modes.isEmpty();
  }

  /**
   * The argument list that starts this CLI, with the binary resolved to an absolute path so a CLI
   * installed outside the engine's PATH still launches.
   */
  public List<String> launchArgv(Path binary, Map<String, String> values, boolean resume) {
    List<String> argv = new ArrayList<>();
    argv.add(binary.toString());
    List<String> template = resume && !resumeArgs.isEmpty() ? resumeArgs : args;
    for (String arg : template) {
      argv.add(fill(arg, values));
    }
    String mode = values.getOrDefault("mode", "");
    if (!mode.isEmpty()) {
      for (String arg : modeArgs) {
        argv.add(fill(arg, values));
      }
    }
    return argv;
  }

  /** Looks for the binary on {@code path} and then in the usual install directories. */
  public Optional<Path> resolve(List<Path> searchPath) {
    if (command.contains("/")) {
      Path direct = Path.of(command);
      return Files.isExecutable(direct) && !Files.isDirectory(direct)
          ? Optional.of(direct.toAbsolutePath())
          : Optional.empty();
    }
    for (Path dir : searchPath) {
      Path candidate = dir.resolve(command);
      if (Files.isExecutable(candidate) && !Files.isDirectory(candidate)) {
        return Optional.of(candidate.toAbsolutePath());
      }
    }
    return Optional.empty();
  }

  private static String fill(String arg, Map<String, String> values) {
    String out = arg;
    for (Map.Entry<String, String> entry : values.entrySet()) {
      out = out.replace("{" + entry.getKey() + "}", entry.getValue());
    }
    return out;
  }
}
