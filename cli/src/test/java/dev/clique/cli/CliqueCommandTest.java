package dev.clique.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.clique.engine.Engine;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class CliqueCommandTest {
  @TempDir Path home;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private final Map<String, String> env = new HashMap<>();

  @BeforeEach
  void throwawayHome() {
    env.put("CLIQUE_HOME", home.resolve("clique").toString());
    Environment.use(env);
  }

  @AfterEach
  void realEnvironmentAgain() {
    Environment.use(System.getenv());
  }

  private int run(String... args) {
    CommandLine command = CliqueCommand.commandLine();
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(err, true));
    return command.execute(args);
  }

  @Test
  void versionNamesTheProjectAndTheCommitItWasBuiltFrom() throws Exception {
    assertThat(run("--version")).isZero();
    assertThat(out.toString().strip())
        .matches("clique \\S+ \\(commit [0-9a-f]{12}(, modified)?\\)");
    Process git = new ProcessBuilder("git", "rev-parse", "HEAD").redirectErrorStream(true).start();
    String head = new String(git.getInputStream().readAllBytes()).strip();
    assertThat(git.waitFor()).as(head).isZero();
    assertThat(out.toString()).contains("(commit " + head.substring(0, 12));
  }

  @Test
  void doctorListsEachInstalledCliWithItsVersionAndTheVersionsItWasProvenOn() throws Exception {
    // Claude Code as npm lays it out: bin/claude a link into its package, whose package.json
    // says the version; Codex printing its version when asked; no Gemini CLI.
    Path pkg = home.resolve("lib/node_modules/@anthropic-ai/claude-code");
    Files.createDirectories(pkg);
    Files.writeString(pkg.resolve("package.json"), "{\"name\": \"x\", \"version\": \"9.8.7\"}");
    Path script = Files.writeString(pkg.resolve("cli.js"), "#!/bin/sh\nexit 3\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path bin = Files.createDirectories(home.resolve("bin"));
    Files.createSymbolicLink(bin.resolve("claude"), script);
    Path codex = Files.writeString(bin.resolve("codex"), "#!/bin/sh\necho 'codex-cli 0.169.0'\n");
    Files.setPosixFilePermissions(codex, PosixFilePermissions.fromString("rwxr-xr-x"));
    env.put("PATH", bin.toString());
    env.put("HOME", home.toString());

    assertThat(run("doctor")).as(err.toString()).isZero();

    assertThat(out.toString())
        .containsPattern(
            "\n  claude +9\\.8\\.7 +proven on 2\\.1\\.328  \\(not the version proven\\)\n")
        .containsPattern("\n  codex +0\\.169\\.0 +proven on 0\\.169\\.0\n")
        .containsPattern("\n  gemini +not installed +proven on 0\\.61\\.0\n");
  }

  /** A loopback receiver answering {@code status} to each post, keeping what it was sent. */
  private static HttpServer receiver(int status, List<String> bodies) throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          exchange.sendResponseHeaders(status, -1);
          exchange.close();
        });
    server.start();
    return server;
  }

  private void notifyFile(String... lines) throws Exception {
    Path dir = Files.createDirectories(home.resolve("clique"));
    Files.writeString(dir.resolve("notify.toml"), String.join("\n", lines) + "\n");
  }

  @Test
  void notifyWithoutAnEngineListsTheFileTargetsMaskedAndItsMistakesWithTheirLines()
      throws Exception {
    notifyFile(
        "[[webhook]]",
        "url = \"https://ntfy.sh/my-secret-topic?auth=hidden\"",
        "format = \"ntfy\"",
        "events = [\"waiting\", \"error\"]",
        "cli = \"claude\"",
        "",
        "[[command]]",
        "run = [\"notify-send\", \"{title}\"]",
        "",
        "[[webhook]]",
        "url = \"ftp://example.com/x\"");

    assertThat(run("notify")).isEqualTo(ExitCodes.NOT_CONFIGURED);

    String said = out.toString();
    assertThat(said)
        .contains("(as the file says them; no delivery is known: no engine is running for ")
        .contains("\n  webhook 1 (https://ntfy.sh/***)\n    events: waiting, error\n")
        .contains("    only:   cli claude, any name\n")
        .contains(
            "\n  command 1 (notify-send)\n"
                + "    events: waiting, usage_limit, error, finished, stopped\n")
        .contains("notify.toml line 11: `url` must be an http:// or https:// URL")
        .doesNotContain("secret")
        .doesNotContain("hidden");
  }

  @Test
  void notifyAsksTheRunningEngineAndShowsEachTargetsLastDelivery() throws Exception {
    notifyFile("[[webhook]]", "url = \"http://127.0.0.1:9/hook/secret\"", "events = [\"stopped\"]");
    String socket = "clique-notify-test-" + ProcessHandle.current().pid();
    env.put("CLIQUE_TMUX_SOCKET", socket);
    env.put("CLIQUE_DISCOVER", "off");
    env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    Engine engine = Engine.start(env, "127.0.0.1", 0, true, "test");
    try {
      assertThat(run("notify")).as(err.toString()).isZero();
    } finally {
      engine.close();
      // Only this test's own server, if the engine started one.
      new ProcessBuilder("tmux", "-L", socket, "kill-server")
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start()
          .waitFor();
    }
    assertThat(out.toString())
        .contains("notify.toml (as the running engine tells them)\n")
        .contains(
            "\n  webhook 1 (http://127.0.0.1:9/***)\n    events: stopped\n    last:   none yet\n")
        .doesNotContain("secret");
  }

  @Test
  void notifyTestSendsOneMessageToEachTargetAndSaysWhatEachAnswered() throws Exception {
    List<String> good = new CopyOnWriteArrayList<>();
    List<String> bad = new CopyOnWriteArrayList<>();
    HttpServer ok = receiver(204, good);
    HttpServer refusing = receiver(404, bad);
    try {
      notifyFile(
          "[[webhook]]",
          "url = \"http://127.0.0.1:" + ok.getAddress().getPort() + "/hook/secret\"",
          "",
          "[[webhook]]",
          "url = \"http://127.0.0.1:" + refusing.getAddress().getPort() + "/\"",
          "events = [\"finished\"]");

      assertThat(run("notify", "test")).as(err.toString()).isEqualTo(ExitCodes.NOT_CONFIGURED);

      assertThat(out.toString())
          .isEqualTo(
              "  webhook 1 (http://127.0.0.1:"
                  + ok.getAddress().getPort()
                  + "/***): answered 204"
                  + System.lineSeparator()
                  + "  webhook 2 (http://127.0.0.1:"
                  + refusing.getAddress().getPort()
                  + "): FAILED: answered 404 (not tried again)"
                  + System.lineSeparator());
      assertThat(good).hasSize(1);
      assertThat(bad).as("a 4xx is not tried again").hasSize(1);
      assertThat(good.get(0)).contains("\"event\":\"waiting\"").contains("clique notify test");

      refusing.stop(0);
      notifyFile(
          "[[webhook]]",
          "url = \"http://127.0.0.1:" + ok.getAddress().getPort() + "/hook/secret\"");
      out.getBuffer().setLength(0);
      assertThat(run("notify", "test")).as(err.toString()).isZero();
      assertThat(good).hasSize(2);
    } finally {
      ok.stop(0);
      refusing.stop(0);
    }
  }

  @Test
  void notifyTestWithNoTargetSaysSoAndExitsOne() {
    assertThat(run("notify", "test")).isEqualTo(ExitCodes.NOT_CONFIGURED);
    assertThat(err.toString()).contains("notify.toml has no target: add a [[webhook]]");
  }

  @Test
  void doctorShowsTheNotificationTargetsAndTheFileMistakesWithTheirLines() throws Exception {
    notifyFile(
        "[[command]]",
        "run = [\"notify-send\"]",
        "events = [\"stopped\"]",
        "",
        "[[command]]",
        "run = \"notify-send\"");

    run("doctor");

    assertThat(out.toString())
        .contains("\nnotify: " + home.resolve("clique").resolve("notify.toml"))
        .contains("\n  command 1 (notify-send): stopped\n")
        .contains("notify.toml line 6: `run` is the command and its arguments");
  }

  @Test
  void doctorSaysWhenNoEngineRunsToSayHowItWatchesTmux() {
    assertThat(run("doctor")).as(err.toString()).isZero();

    assertThat(out.toString())
        .contains(
            "\nwatch:  no engine is running for "
                + home.resolve("clique")
                + ": start one with `clique serve`");
  }

  @Test
  void tokenCreatePrintsTheTokenAloneOnItsLineAndStoresOnlyItsHash() throws Exception {
    assertThat(run("token", "create", "reader", "--read-only")).isZero();
    String token = out.toString().strip();
    assertThat(token).matches("mxp_[A-Za-z0-9_-]{43}");
    assertThat(out.toString()).isEqualTo(token + System.lineSeparator());
    assertThat(err.toString()).doesNotContain(token);
    Path file = home.resolve("clique").resolve("tokens.json");
    assertThat(Files.readString(file)).doesNotContain(token).contains("\"read\"");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())))
        .isEqualTo("rwx------");
  }

  @Test
  void tokenListNeverShowsATokenAndRevokeRemovesIt() {
    run("token", "create", "ops");
    String token = out.toString().strip();
    out.getBuffer().setLength(0);
    assertThat(run("token", "list")).isZero();
    String listing = out.toString();
    assertThat(listing).contains("ops").contains("read,write").doesNotContain(token);
    String id = listing.lines().skip(1).findFirst().orElseThrow().split("\\s+")[0];
    assertThat(run("token", "revoke", id)).isZero();
    assertThat(run("token", "revoke", id)).isEqualTo(ExitCodes.NOT_FOUND);
    assertThat(err.toString()).contains("no token with id " + id);
  }

  @Test
  void onlyThePlainFormsOfMcpSkipPicocli() {
    assertThat(McpCommand.isPlain(new String[] {"mcp"})).isTrue();
    assertThat(McpCommand.isPlain(new String[] {"mcp", "--embedded"})).isTrue();
    assertThat(McpCommand.isPlain(new String[] {"mcp", "--help"})).isFalse();
    assertThat(McpCommand.isPlain(new String[] {"mcp", "--embedded", "--help"})).isFalse();
    assertThat(McpCommand.isPlain(new String[] {"serve"})).isFalse();
    assertThat(McpCommand.isPlain(new String[] {})).isFalse();
  }

  @Test
  void noDiscoverTurnsDiscoveryOffForServeAndTheEmbeddedEngine() {
    assertThat(McpCommand.isPlain(new String[] {"mcp", "--embedded", "--no-discover"})).isFalse();
    CommandLine.ParseResult serve = CliqueCommand.commandLine().parseArgs("serve", "--no-discover");
    assertThat(serve.subcommand().matchedOptionValue("--no-discover", false)).isTrue();
    CommandLine.ParseResult mcp =
        CliqueCommand.commandLine().parseArgs("mcp", "--embedded", "--no-discover");
    assertThat(mcp.subcommand().matchedOptionValue("--no-discover", false)).isTrue();
    assertThat(Environment.withoutDiscovery(Map.of("CLIQUE_DISCOVER", "on", "HOME", "/home/dev")))
        .containsEntry("CLIQUE_DISCOVER", "off")
        .containsEntry("HOME", "/home/dev");
  }

  @Test
  void mcpWithoutATokenExitsOneAndSaysHowToMakeOne() {
    assertThat(run("mcp")).isEqualTo(1);
    assertThat(err.toString()).contains("clique token create <name> --read-only");
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void mcpOverAnEnginesFileOthersMayReadExitsOneSayingHowToMendIt() throws Exception {
    Path dir = Files.createDirectories(home.resolve("clique"));
    Path engines = dir.resolve("engines.toml");
    Files.writeString(engines, "[engines.a]\nurl = \"http://127.0.0.1:1\"\ntoken_env = \"T\"\n");
    Files.setPosixFilePermissions(engines, PosixFilePermissions.fromString("rw-r--r--"));

    assertThat(run("mcp")).isEqualTo(1);
    assertThat(err.toString()).contains("chmod 600 " + engines);
    assertThat(out.toString()).isEmpty();

    Files.setPosixFilePermissions(engines, PosixFilePermissions.fromString("rw-------"));
    err.getBuffer().setLength(0);
    assertThat(run("mcp")).isEqualTo(1);
    assertThat(err.toString()).contains("takes its token from T, which is not set");
  }

  @Test
  void mcpWithANonHttpUrlExitsOneWithASentence() {
    env.put("CLIQUE_TOKEN", "mxp_" + "b".repeat(43));
    env.put("CLIQUE_URL", "file:///etc/passwd");
    assertThat(run("mcp")).isEqualTo(1);
    assertThat(err.toString())
        .contains("must be an http:// or https:// URL")
        .doesNotContain("mxp_");
  }

  @Test
  void mcpRefusesPlainHttpToAnotherMachineSayingWhatToDo() {
    String token = "mxp_" + "c".repeat(43);
    env.put("CLIQUE_TOKEN", token);
    env.put("CLIQUE_URL", "http://10.20.30.40:3200");
    env.put("CLIQUE_ALLOW_PLAIN_HTTP", "true"); // only 1 allows it

    assertThat(run("mcp")).isEqualTo(1);
    assertThat(err.toString())
        .startsWith("clique mcp: CLIQUE_URL is plain http:// to 10.20.30.40, which is not this")
        .contains("https://")
        .contains("CLIQUE_CERT_SHA256")
        .contains("ssh -N -L 3201:127.0.0.1:3200 user@10.20.30.40")
        .contains("CLIQUE_URL=http://127.0.0.1:3201")
        .contains("CLIQUE_ALLOW_PLAIN_HTTP=1")
        .doesNotContain(token);
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void mcpRefusesAPinThatIsNoFingerprintOrIsForPlainHttp() {
    env.put("CLIQUE_TOKEN", "mxp_" + "d".repeat(43));
    env.put("CLIQUE_URL", "https://box.example:3200");
    env.put("CLIQUE_CERT_SHA256", "AB:CD");
    assertThat(run("mcp")).isEqualTo(1);
    assertThat(err.toString())
        .startsWith(
            "clique mcp: CLIQUE_CERT_SHA256: a certificate SHA-256 fingerprint is 32 bytes");

    err.getBuffer().setLength(0);
    env.put("CLIQUE_URL", "http://127.0.0.1:3200");
    env.put("CLIQUE_CERT_SHA256", "ab".repeat(32));
    assertThat(run("mcp")).isEqualTo(1);
    assertThat(err.toString()).contains("a certificate pin is for an https:// engine");
  }

  @Test
  void serveRefusesTlsSettingsItCannotUseAndDoesNotStart() throws Exception {
    Path password = home.resolve("password");
    Files.writeString(password, "secret\n");
    Files.setPosixFilePermissions(password, PosixFilePermissions.fromString("rw-------"));
    env.put("CLIQUE_TLS_KEYSTORE", home.resolve("missing.p12").toString());
    env.put("CLIQUE_TLS_PASSWORD_FILE", password.toString());

    assertThat(run("serve", "--port", "0")).isEqualTo(1);
    assertThat(err.toString())
        .startsWith("clique serve: the TLS keystore (CLIQUE_TLS_KEYSTORE) ")
        .contains("missing.p12 does not exist")
        .contains("keytool -genkeypair")
        .doesNotContain("listening");

    err.getBuffer().setLength(0);
    env.remove("CLIQUE_TLS_PASSWORD_FILE");
    assertThat(run("serve", "--port", "0")).isEqualTo(1);
    assertThat(err.toString()).contains("CLIQUE_TLS_PASSWORD_FILE is not");
  }

  @Test
  void everyCommandOnAHomeOthersCanWriteSaysTheRefusalInOneLineAndExitsOne() throws Exception {
    Path clique = Files.createDirectories(home.resolve("clique"));
    Path engines = clique.resolve("engines.toml");
    Files.writeString(engines, "[engines.a]\nurl = \"http://127.0.0.1:1\"\ntoken_env = \"T\"\n");
    Files.setPosixFilePermissions(engines, PosixFilePermissions.fromString("rw-------"));
    Files.setPosixFilePermissions(clique, PosixFilePermissions.fromString("rwxrwxrwx"));
    String refusal =
        "refusing "
            + clique
            + ": it is writable by others, who could have planted a token in it; check what it"
            + " holds, then chmod 700 it and start again";

    for (List<String> command :
        List.of(
            List.of("token", "create", "reader", "--read-only"),
            List.of("token", "list"),
            List.of("token", "revoke", "tk_abc"),
            List.of("new", "shell", "."),
            List.of("ls"),
            List.of("peek", "api"),
            List.of("log", "api"),
            List.of("attach", "api"),
            List.of("stop", "api"),
            List.of("start", "api"),
            List.of("rm", "api"),
            List.of("adopt", "api"),
            List.of("serve", "--port", "0"),
            List.of("mcp"))) {
      String name = "clique " + String.join(" ", command.subList(0, named(command)));
      assertThat(runRefused(command)).as(name).isEqualTo(ExitCodes.NOT_CONFIGURED);
      assertThat(err.toString())
          .as(name)
          .isEqualTo(name + ": " + refusal + System.lineSeparator())
          .doesNotContain("Exception")
          .doesNotContain("at dev.clique");
      assertThat(out.toString()).as(name).isEmpty();
    }
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(clique)))
        .as("no command mended the home behind the user's back")
        .isEqualTo("rwxrwxrwx");
  }

  @Test
  void aHomeLinkedToNothingIsRefusedInOneLineSayingWhatToMake() throws Exception {
    Path missing = home.resolve("dotfiles").resolve("clique");
    Path link = Files.createSymbolicLink(home.resolve("clique"), missing);
    String refusal =
        "refusing "
            + link
            + ": it links to "
            + missing
            + ", which does not exist; make that directory (mkdir -m 700 "
            + missing
            + ") or point the link at your home and start again";

    for (List<String> command :
        List.of(List.of("token", "create", "reader"), List.of("ls"), List.of("stop", "api"))) {
      String name = "clique " + String.join(" ", command.subList(0, named(command)));
      assertThat(runRefused(command)).as(name).isEqualTo(ExitCodes.NOT_CONFIGURED);
      assertThat(err.toString()).as(name).isEqualTo(name + ": " + refusal + System.lineSeparator());
      assertThat(out.toString()).as(name).isEmpty();
    }
  }

  @Test
  void adoptHelpRendersItsTargetWithoutAFormatWarning() {
    java.io.ByteArrayOutputStream stderr = new java.io.ByteArrayOutputStream();
    java.io.PrintStream before = System.err;
    System.setErr(new java.io.PrintStream(stderr, true));
    try {
      assertThat(run("adopt", "--help")).isZero();
    } finally {
      System.setErr(before);
    }
    assertThat(stderr.toString()).as("picocli's own warnings").isEmpty();
    assertThat(out.toString()).contains("its name, its id, or SOCKET:%PANE");
  }

  @Test
  void newHelpSaysTheDefaultNameIsTheCliAndTheStartOfItsId() {
    assertThat(run("new", "--help")).isZero();
    assertThat(out.toString().replaceAll("\\s+", " "))
        .contains("the session's name (default: the CLI and the start of its id, as shell-3f2b)")
        .doesNotContain("the folder)");
  }

  @Test
  void theTopLevelHelpGivesEachCommandAWholeSentence() {
    assertThat(run("--help")).isZero();
    List<String> lines = out.toString().lines().toList();
    // One entry a command: its line, and the lines picocli wrapped it onto.
    List<String> commands = new java.util.ArrayList<>();
    for (String line : lines.subList(lines.indexOf("Commands:") + 1, lines.size())) {
      if (line.startsWith("    ")) {
        commands.add(commands.remove(commands.size() - 1) + " " + line.strip());
      } else if (!line.isBlank()) {
        commands.add(line);
      }
    }
    assertThat(commands).hasSize(15);
    assertThat(commands).allSatisfy(entry -> assertThat(entry).endsWith("."));
    assertThat(commands).contains("  ls      List the sessions and what each is doing.");
  }

  @Test
  void aHomeThatIsAFileIsRefusedSayingToPointCliqueHomeAtADirectory() throws Exception {
    Path file = Files.writeString(home.resolve("clique"), "");

    assertThat(run("ls")).isEqualTo(ExitCodes.NOT_CONFIGURED);
    assertThat(err.toString())
        .isEqualTo(
            "clique ls: refusing "
                + file
                + ": it is not a directory; point CLIQUE_HOME at a directory and start again"
                + System.lineSeparator());
  }

  @Test
  void doctorSaysAHomeThatIsAFileIsOneAndExitsOne() throws Exception {
    Files.writeString(home.resolve("clique"), "");

    assertThat(run("doctor")).isEqualTo(ExitCodes.NOT_CONFIGURED);
    assertThat(out.toString())
        .contains(
            "home:   "
                + home.resolve("clique")
                + " (a file, not a directory: point CLIQUE_HOME at a directory)")
        .doesNotContain("not made yet");
  }

  @Test
  void doctorSaysAShellIsProvenOnAnyVersionAndWhichClisAreRecognisedOnly() {
    assertThat(run("doctor")).as(err.toString()).isZero();
    assertThat(out.toString())
        .containsPattern("\n  shell +\\S.* proven on any version\n")
        .containsPattern("\n  aider +\\S.* recognised only: proven on no version\n")
        .doesNotContain("proven on none");
  }

  @Test
  void attachOffATerminalSaysItNeedsOneAndWhatToUseInstead() {
    // The tests' stdin is not a terminal, as a script's is not.
    assertThat(run("attach", "api")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .isEqualTo(
            "clique attach: attach needs a terminal (stdin is not one): run it in a terminal, or"
                + " see the session's screen from here with `clique peek api`"
                + System.lineSeparator());
  }

  private int runRefused(List<String> command) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    return run(command.toArray(String[]::new));
  }

  /** How many words name the command: {@code token create}, {@code ls}. */
  private static int named(List<String> command) {
    return command.get(0).equals("token") ? 2 : 1;
  }
}
