package dev.clique.cli;

import dev.clique.client.CliqueClient;
import dev.clique.engine.EngineSettings;
import dev.clique.engine.home.HomeRefusedException;
import dev.clique.mcp.CliqueMcpServer;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code clique mcp}: the read-only MCP server on stdin/stdout. */
@Command(
    name = "mcp",
    mixinStandardHelpOptions = true,
    description = {
      "Serve the read-only MCP tools on stdin/stdout.",
      "Talks to CLIQUE_URL (default http://127.0.0.1:3200) with CLIQUE_TOKEN;",
      "with neither set, to every engine $CLIQUE_HOME/engines.toml names;",
      "or, with --embedded, to the engine of $CLIQUE_HOME: the one running there",
      "(clique serve, or another clique mcp --embedded), else one started in this process.",
      "An https:// engine with its own certificate: CLIQUE_CERT_SHA256 pins it.",
      "Plain http:// to another machine is refused unless CLIQUE_ALLOW_PLAIN_HTTP=1."
    })
final class McpCommand implements Callable<Integer> {
  /** The client's own default: one place says where a local engine listens. */
  static final String DEFAULT_URL = CliqueClient.Builder.DEFAULT_URL;

  /** The SHA-256 fingerprint of the certificate of an https:// engine, pinned. */
  static final String CERT_SHA256 = "CLIQUE_CERT_SHA256";

  /** {@code 1} lets the token go over plain http:// to another machine. */
  static final String ALLOW_PLAIN_HTTP = "CLIQUE_ALLOW_PLAIN_HTTP";

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--embedded",
      description =
          "Use the engine running for CLIQUE_HOME, or start one in this process, with a read-only"
              + " token of this process's own: no set-up.")
  boolean embedded;

  @Option(
      names = "--no-discover",
      description =
          "With --embedded: list only clique's own sessions, not those on your other tmux servers"
              + " (as CLIQUE_DISCOVER=off).")
  boolean noDiscover;

  @Override
  public Integer call() throws IOException {
    return run(embedded, noDiscover, spec.commandLine().getErr());
  }

  /**
   * What a person who typed {@code clique mcp} in a terminal reads on stderr: it then waits for an
   * MCP client's messages, which nobody types.
   */
  static String typedInATerminal(boolean embedded) {
    String launcher = System.getProperty("clique.launcher", "/path/to/clique/bin/clique");
    String command = launcher + " mcp" + (embedded ? " --embedded" : "");
    return "clique mcp: this is an MCP server: it speaks the Model Context Protocol on stdin and"
        + " stdout, and is meant to be started by an MCP client, not typed here."
        + System.lineSeparator()
        + "Add it to one, e.g. Claude Code: claude mcp add clique -- "
        + command
        + System.lineSeparator()
        + "(README.md, \"Use it from an MCP client\", has the others). Ctrl-C quits.";
  }

  /** {@code clique mcp} or {@code clique mcp --embedded}, and nothing else on the line. */
  static boolean isPlain(String[] args) {
    return (args.length == 1 && args[0].equals("mcp"))
        || (args.length == 2 && args[0].equals("mcp") && args[1].equals("--embedded"));
  }

  /** Runs the server until stdin ends; the exit code. Refusals are said on {@code err}. */
  static int run(boolean embedded, boolean noDiscover, PrintWriter err) throws IOException {
    if (Terminal.isStdin()) {
      err.println(typedInATerminal(embedded));
      err.flush();
    }
    Map<String, String> env =
        noDiscover
            ? Environment.withoutDiscovery(Environment.variables())
            : Environment.variables();
    // stdout is the protocol: take the raw descriptor before anything can print to it.
    OutputStream protocolOut = new FileOutputStream(FileDescriptor.out);
    // A channel's stream, since closing it wakes the read blocked on it: the JVM waits up to
    // 300 ms at exit for a thread blocked in a system call (a FileInputStream's read is one).
    InputStream protocolIn =
        Channels.newInputStream(new FileInputStream(FileDescriptor.in).getChannel());
    if (embedded) {
      HomeEngine engine = HomeEngine.open(env, err);
      try {
        serve(engine.client(), protocolIn, protocolOut, engine::close);
      } finally {
        engine.close();
      }
      return ExitCodes.OK;
    }
    String token = env.get("CLIQUE_TOKEN");
    String url = env.getOrDefault("CLIQUE_URL", "");
    Path engines = EnginesFile.in(env);
    if ((token == null || token.isBlank()) && url.isBlank() && Files.exists(engines)) {
      CliqueClient client;
      try {
        EngineSettings.fromEnvironment(env)
            .home()
            .requireTrusted(); // the file is only as safe as its home
        client = EnginesFile.read(engines, env);
      } catch (HomeRefusedException e) {
        return refuse(err, e.getMessage()); // the plain form skips picocli, and its handler
      } catch (IOException e) {
        return refuse(err, "cannot read the engines set-up: " + e.getMessage());
      } catch (IllegalArgumentException e) {
        return refuse(err, e.getMessage());
      }
      serve(client, protocolIn, protocolOut, () -> {});
      return ExitCodes.OK;
    }
    if (token == null || token.isBlank()) {
      return refuse(
          err,
          "CLIQUE_TOKEN is not set. Make a read-only token with"
              + " `clique token create <name> --read-only` and set CLIQUE_TOKEN to it"
              + " (or run `clique mcp --embedded`, which needs no token, or name your engines in "
              + engines
              + ").");
    }
    if (url.isBlank()) {
      url = DEFAULT_URL;
    }
    boolean allowPlainHttp = "1".equals(env.get(ALLOW_PLAIN_HTTP));
    CliqueClient client;
    try {
      CliqueClient.Builder builder =
          CliqueClient.builder().baseUrl(url).token(token).allowPlainHttp(allowPlainHttp);
      String pin = env.getOrDefault(CERT_SHA256, "");
      if (!pin.isBlank()) {
        try {
          builder.certificateSha256(pin);
        } catch (IllegalArgumentException e) {
          return refuse(err, CERT_SHA256 + ": " + e.getMessage());
        }
      }
      try {
        client = builder.build();
      } catch (IllegalArgumentException e) {
        if (!allowPlainHttp && buildsWithPlainHttp(builder)) {
          return refuse(err, plainHttpRefused(url));
        }
        throw e;
      }
    } catch (IllegalArgumentException e) { // the client's own checks, in its words
      return refuse(
          err,
          e.getMessage()
              + " (from CLIQUE_URL and CLIQUE_TOKEN; the default is "
              + DEFAULT_URL
              + ")");
    }
    serve(client, protocolIn, protocolOut, () -> {});
    return ExitCodes.OK;
  }

  /**
   * Serves until stdin ends. SIGINT and SIGTERM stop the server at once, then {@code alsoStop} (the
   * embedded engine, whose listening threads would hold the exit up as stdin's read does).
   */
  private static void serve(
      CliqueClient client, InputStream in, OutputStream out, Runnable alsoStop) throws IOException {
    CliqueMcpServer server = new CliqueMcpServer(client, BuildInfo.current().version());
    Thread stop =
        new Thread(
            () -> {
              server.stop();
              alsoStop.run();
            },
            "clique-mcp-stop");
    Runtime.getRuntime().addShutdownHook(stop);
    server.serve(in, out);
  }

  /** Whether plain HTTP to another machine was the one thing the client refused. */
  private static boolean buildsWithPlainHttp(CliqueClient.Builder builder) {
    try {
      builder.allowPlainHttp(true).build();
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    } finally {
      builder.allowPlainHttp(false);
    }
  }

  private static String plainHttpRefused(String url) {
    String host;
    try {
      host = URI.create(url.strip()).getHost();
    } catch (IllegalArgumentException e) {
      host = null;
    }
    String box = host == null ? "<host>" : host;
    return "CLIQUE_URL is plain http:// to "
        + box
        + ", which is not this machine: the token would cross the network where anyone on the"
        + " way can read it. Use the engine's https:// URL (with "
        + CERT_SHA256
        + " set to the fingerprint `clique serve` prints, for its own certificate), or an SSH"
        + " forward (`ssh -N -L 3201:127.0.0.1:3200 user@"
        + box
        + "`, then CLIQUE_URL=http://127.0.0.1:3201), or, on a network you trust, set "
        + ALLOW_PLAIN_HTTP
        + "=1";
  }

  private static int refuse(PrintWriter err, String message) {
    err.println("clique mcp: " + message);
    err.flush();
    return ExitCodes.NOT_CONFIGURED;
  }
}
