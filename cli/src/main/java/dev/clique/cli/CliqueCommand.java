package dev.clique.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code clique}: see, never touch, the coding-agent sessions running in tmux. */
@Command(
    name = "clique",
    mixinStandardHelpOptions = true,
    exitCodeOnInvalidInput = ExitCodes.USAGE,
    exitCodeOnExecutionException = ExitCodes.NOT_CONFIGURED,
    versionProvider = VersionProvider.class,
    description = "Watch coding-agent sessions (Claude Code, Codex, Gemini, shells) in tmux.",
    subcommands = {ServeCommand.class, McpCommand.class, TokenCommand.class})
public final class CliqueCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The command line, ready to execute: tests call this with their own streams. */
  static CommandLine commandLine() {
    return new CommandLine(new CliqueCommand());
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getErr());
  }
}
