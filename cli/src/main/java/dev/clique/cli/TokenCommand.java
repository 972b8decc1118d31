package dev.clique.cli;

import dev.clique.engine.EngineSettings;
import dev.clique.engine.home.CliqueHome;
import dev.clique.engine.token.MintedToken;
import dev.clique.engine.token.Scope;
import dev.clique.engine.token.Token;
import dev.clique.engine.token.TokenStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code clique token}: mint, list and revoke API tokens (only on this machine). */
@Command(
    name = "token",
    mixinStandardHelpOptions = true,
    description = "Create, list and revoke API tokens.",
    subcommands = {
      TokenCommand.Create.class,
      TokenCommand.ListTokens.class,
      TokenCommand.Revoke.class
    })
final class TokenCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getErr());
  }

  static TokenStore store() throws IOException {
    CliqueHome home = EngineSettings.fromEnvironment(Environment.variables()).home();
    home.ensureExists();
    return TokenStore.open(home.tokensFile(), Clock.systemUTC());
  }

  @Command(
      name = "create",
      mixinStandardHelpOptions = true,
      description = "Mint a token and print it once, alone on its line.")
  static final class Create implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", description = "A name to recognise it by (at most 60 characters).")
    String name;

    @Option(names = "--read-only", description = "Only reads (what `clique mcp` needs).")
    boolean readOnly;

    @Override
    public Integer call() throws IOException {
      Set<Scope> scopes = readOnly ? EnumSet.of(Scope.READ) : EnumSet.of(Scope.READ, Scope.WRITE);
      MintedToken minted;
      try {
        minted = store().create(name, scopes, "");
      } catch (IllegalArgumentException e) {
        spec.commandLine().getErr().println("clique token create: " + e.getMessage());
        return ExitCodes.USAGE;
      }
      PrintWriter out = spec.commandLine().getOut();
      out.println(minted.secret());
      out.flush();
      spec.commandLine()
          .getErr()
          .println(
              "created "
                  + minted.token().id()
                  + " ("
                  + String.join(",", scopeNames(minted.token()))
                  + "); it is shown only this once");
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List tokens: id, name, scopes, created, last used (never the token).")
  static final class ListTokens implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      PrintWriter out = spec.commandLine().getOut();
      List<Token> tokens = store().listing();
      if (tokens.isEmpty()) {
        spec.commandLine()
            .getErr()
            .println("no tokens yet: clique token create <name> --read-only");
        return ExitCodes.OK;
      }
      out.printf("%-12s %-24s %-12s %-20s %s%n", "ID", "NAME", "SCOPES", "CREATED", "LAST USED");
      for (Token token : tokens) {
        out.printf(
            "%-12s %-24s %-12s %-20s %s%n",
            token.id(),
            token.name(),
            String.join(",", scopeNames(token)),
            when(token.created()),
            token.lastUsed() == 0 ? "never" : when(token.lastUsed()));
      }
      out.flush();
      return ExitCodes.OK;
    }
  }

  @Command(name = "revoke", mixinStandardHelpOptions = true, description = "Revoke a token by id.")
  static final class Revoke implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", description = "The token's id (tk_...), as `clique token list` shows.")
    String id;

    @Override
    public Integer call() throws IOException {
      if (!store().revoke(id)) {
        spec.commandLine().getErr().println("clique token revoke: no token with id " + id);
        return ExitCodes.NOT_FOUND;
      }
      spec.commandLine().getErr().println("revoked " + id);
      return ExitCodes.OK;
    }
  }

  private static List<String> scopeNames(Token token) {
    return Arrays.stream(Scope.values()).filter(token::allows).map(Scope::wireName).toList();
  }

  private static String when(long seconds) {
    return Instant.ofEpochSecond(seconds).toString().replace("T", " ").replace("Z", "");
  }
}
