package dev.clique.cli;

import java.io.IOException;
import java.io.PrintWriter;
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
    subcommands = {
      ServeCommand.class,
      McpCommand.class,
      NewCommand.class,
      LsCommand.class,
      AttachCommand.class,
      PeekCommand.class,
      LogCommand.class,
      StopCommand.class,
      StartCommand.class,
      RmCommand.class,
      AdoptCommand.class,
      TokenCommand.class,
      HooksCommand.class,
      NotifyCommand.class,
      DoctorCommand.class
    })
public final class CliqueCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) throws IOException, InterruptedException {
    // `clique mcp` starts once per chat session, and picocli's classes (Java 5 class files) cannot
    // be class-data shared: its two plain forms skip picocli, a measured fifth of the start.
    if (McpCommand.isPlain(args)) {
      System.exit(McpCommand.run(args.length == 2, false, new PrintWriter(System.err, true)));
    }
    int exitCode = commandLine().execute(args);
    // `clique serve` serves here, with the command line it was parsed from no longer reachable.
    ServeCommand.awaitStarted();
    System.exit(exitCode);
  }

  /** The command line, ready to execute: tests call this with their own streams. */
  static CommandLine commandLine() {
    return new CommandLine(new CliqueCommand())
        .setExecutionExceptionHandler(new HomeRefusalHandler());
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getErr());
  }
}
