package dev.clique.cli;

import dev.clique.engine.EngineSettings;
import dev.clique.engine.hooks.PersonalHooks;
import dev.clique.engine.hooks.PersonalHooks.Target;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code clique hooks}: clique's hooks in the person's own settings of their CLIs, so that the
 * sessions they run outside clique report their states to the engine of their home.
 */
@Command(
    name = "hooks",
    mixinStandardHelpOptions = true,
    description =
        "Hooks in your own settings of each CLI (Claude Code, Qwen Code) that report its sessions'"
            + " states to this home's engine, for the sessions you run outside clique.",
    subcommands = {
      HooksCommand.Install.class,
      HooksCommand.Remove.class,
      HooksCommand.Status.class
    })
final class HooksCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** With no sub-command: what is installed where. */
  @Override
  public Integer call() {
    return status(spec, List.of());
  }

  private static PersonalHooks hooks() {
    EngineSettings settings = EngineSettings.fromEnvironment(Environment.variables());
    return new PersonalHooks(settings.home(), settings.userHome(), Environment.variables());
  }

  /**
   * The targets {@code names} say, or with none those whose CLI has its folder here; empty when a
   * name is no CLI's whose settings take hooks (said on stderr).
   */
  private static Optional<List<Target>> targets(
      PersonalHooks hooks, List<String> names, boolean onlyPresent, PrintWriter err) {
    if (names.isEmpty()) {
      return Optional.of(
          hooks.targets().stream()
              .filter(t -> !onlyPresent || Files.isDirectory(t.folder()))
              .toList());
    }
    List<Target> chosen = new ArrayList<>();
    for (String name : names) {
      Optional<Target> target = hooks.target(name);
      if (target.isEmpty()) {
        err.println(
            "clique hooks: no hooks for "
                + name
                + "; clique installs them for "
                + String.join(", ", hooks.targets().stream().map(Target::cli).toList()));
        return Optional.empty();
      }
      chosen.add(target.get());
    }
    return Optional.of(chosen);
  }

  private static int status(CommandLine.Model.CommandSpec spec, List<String> names) {
    PersonalHooks hooks = hooks();
    PrintWriter out = spec.commandLine().getOut();
    Optional<List<Target>> targets = targets(hooks, names, false, spec.commandLine().getErr());
    if (targets.isEmpty()) {
      return ExitCodes.USAGE;
    }
    for (Target target : targets.get()) {
      out.println(hooks.status(target));
    }
    out.flush();
    return ExitCodes.OK;
  }

  private interface Change {
    String apply(PersonalHooks hooks, Target target) throws IOException;
  }

  private static int change(
      CommandLine.Model.CommandSpec spec, List<String> names, String verb, Change change) {
    PersonalHooks hooks = hooks();
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Optional<List<Target>> targets = targets(hooks, names, verb.equals("install"), err);
    if (targets.isEmpty()) {
      return ExitCodes.USAGE;
    }
    if (targets.get().isEmpty()) {
      err.println("clique hooks " + verb + ": none of their CLIs has its folder here");
      return ExitCodes.NOT_FOUND;
    }
    int exit = ExitCodes.OK;
    for (Target target : targets.get()) {
      try {
        out.println(change.apply(hooks, target));
      } catch (IOException e) {
        out.flush();
        err.println("clique hooks " + verb + ": " + target.label() + ": " + e.getMessage());
        exit = ExitCodes.NOT_CONFIGURED;
      }
    }
    out.flush();
    err.flush();
    return exit;
  }

  @Command(
      name = "install",
      mixinStandardHelpOptions = true,
      description =
          "Add clique's hooks to your settings of each CLI named (claude, qwen), or of each"
              + " that has its folder here. Prints what it changes; a second time changes nothing.")
  static final class Install implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "CLI", description = "claude, qwen")
    List<String> clis = new ArrayList<>();

    @Override
    public Integer call() {
      return change(spec, clis, "install", PersonalHooks::install);
    }
  }

  @Command(
      name = "remove",
      mixinStandardHelpOptions = true,
      description =
          "Take clique's hooks out: the file as it was when it did not change since, else only"
              + " clique's entries taken out.")
  static final class Remove implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "CLI", description = "claude, qwen")
    List<String> clis = new ArrayList<>();

    @Override
    public Integer call() {
      return change(spec, clis, "remove", PersonalHooks::remove);
    }
  }

  @Command(
      name = "status",
      mixinStandardHelpOptions = true,
      description = "Say where clique's hooks are installed.")
  static final class Status implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "CLI", description = "claude, qwen")
    List<String> clis = new ArrayList<>();

    @Override
    public Integer call() {
      return status(spec, clis);
    }
  }
}
