package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Real programs that ask a question, in shell sessions of a real engine on real tmux: each reads
 * {@code waiting} with its question as {@code attention.detail} and the generic pattern that saw it
 * in {@code state_source}, and {@code idle} again once the answer is typed. Nothing here touches
 * the machine: git works in a repository of the suite's own, and apt-get reads a package list and a
 * status file of the suite's own ({@code APT_CONFIG}), and is answered "n".
 */
@ExtendWith(LeavesRealThingsUntouched.class)
class GenericQuestionsIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration PATIENCE = Duration.ofSeconds(20);

  private static ThrowawayEngine engine;
  private static String admin;
  private static String reader;

  @BeforeAll
  static void start() throws Exception {
    engine = ThrowawayEngine.prepare().withUserHome("").start();
    admin = engine.mintToken("questions-admin", false);
    reader = engine.mintToken("questions-reader", true);
  }

  @AfterAll
  static void stop() throws IOException {
    if (engine != null) {
      engine.close();
    }
  }

  @Test
  void aShellInReadWaitsWithItsQuestionAndIsIdleOnceAnswered() throws Exception {
    String id = idleShell("read");
    send(id, "read -p \"Do you want to proceed? (y/n) \" answer");
    asks(awaitState(id, "waiting"), "Do you want to proceed? (y/n)", "yes-no");
    send(id, "y");
    awaitState(id, "idle");
  }

  @Test
  void aPythonInputPromptWaitsThoughPythonHoldsTheTerminal() throws Exception {
    String id = idleShell("python");
    send(id, "python3 -c 'name = input(\"Name? \"); print(\"hello\", name)'");
    JsonNode session = awaitState(id, "waiting");
    asks(session, "Name?", "short-question");
    assertThat(session.path("command").asText()).isEqualTo("python3");
    send(id, "bob");
    awaitState(id, "idle");
    assertThat(peek(id)).contains("hello bob");
  }

  @Test
  void gitAddPatchWaitsOnWhetherToStageTheHunk() throws Exception {
    Path repo = Files.createDirectories(engine.workdir.resolve("repo"));
    run(repo, "git", "init", "-q");
    Files.writeString(repo.resolve("notes.txt"), "one\ntwo\n");
    run(repo, "git", "add", "notes.txt");
    run(
        repo,
        "git",
        "-c",
        "user.name=clique",
        "-c",
        "user.email=clique@localhost",
        "commit",
        "-qm",
        "notes");
    Files.writeString(repo.resolve("notes.txt"), "one\n2\n");

    String id = idleShell("git");
    send(id, "cd " + repo + " && git add -p");
    JsonNode session = awaitState(id, "waiting");
    String detail = session.at("/attention/detail").asText();
    assertThat(detail).startsWith("(1/1) Stage this hunk [y,n,q,a,").endsWith("]?");
    asks(session, detail, "short-question");
    send(id, "y");
    awaitState(id, "idle");
    assertThat(run(repo, "git", "diff", "--cached", "--name-only")).isEqualTo("notes.txt\n");
  }

  @Test
  void aptGetInstallWaitsOnDoYouWantToContinue() throws Exception {
    Path apt = throwawayApt(engine.workdir.resolve("apt"));
    String id = idleShell("apt");
    send(id, "APT_CONFIG=" + apt.resolve("apt.conf") + " apt-get install clique-demo");
    asks(awaitState(id, "waiting"), "Do you want to continue? [Y/n]", "yes-no");
    send(id, "n");
    awaitState(id, "idle");
    assertThat(peek(id)).contains("Abort.");
  }

  @Test
  void aQuestionEchoedBeforeASilentCommandIsWorkThenIdleNeverWaiting() throws Exception {
    String id = idleShell("ready");
    CompletableFuture<HttpResponse<String>> heldWait =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return engine.get("/api/sessions/" + id + "/wait?for=waiting&timeout=5", reader);
              } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    Thread.sleep(200);
    send(id, "echo \"Ready?\"; sleep 2");
    List<String> seen = new ArrayList<>();
    long end = System.nanoTime() + Duration.ofSeconds(4).toNanos();
    while (System.nanoTime() < end) {
      seen.add(session(id).path("state").asText());
      Thread.sleep(100);
    }
    assertThat(seen).as("states every 100 ms").contains("working").doesNotContain("waiting");
    assertThat(seen.get(seen.size() - 1)).isEqualTo("idle");
    JsonNode waited = ThrowawayEngine.json(heldWait.get(10, TimeUnit.SECONDS).body());
    assertThat(waited.path("matched").asBoolean()).as(waited.toString()).isFalse();
  }

  /** A waiting session asks {@code detail}, seen by the generic pattern {@code pattern}. */
  private static void asks(JsonNode session, String detail, String pattern) {
    assertThat(session.at("/attention/kind").asText()).as(session.toString()).isEqualTo("question");
    assertThat(session.at("/attention/detail").asText()).isEqualTo(detail);
    assertThat(session.at("/state_source/authority").asText()).isEqualTo("pane");
    assertThat(session.at("/state_source/evidence").asText())
        .isEqualTo("generic question " + pattern + ": " + detail);
  }

  /** A new shell session, once it sits idle at its prompt. */
  private static String idleShell(String name) throws Exception {
    String id = engine.createShell(admin, name);
    awaitState(id, "idle");
    return id;
  }

  private static void send(String id, String text) throws Exception {
    String body = JSON.writeValueAsString(Map.of("text", text, "enter", true));
    HttpResponse<String> sent = engine.post("/api/sessions/" + id + "/send", admin, body);
    assertThat(sent.statusCode()).as(sent.body()).isEqualTo(200);
  }

  private static JsonNode session(String id) throws Exception {
    JsonNode state = ThrowawayEngine.json(engine.get("/api/state", reader).body());
    for (JsonNode session : state.path("sessions")) {
      if (session.path("id").asText().equals(id)) {
        return session;
      }
    }
    throw new AssertionError("no session " + id + " in " + state);
  }

  private static JsonNode awaitState(String id, String state) throws Exception {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    JsonNode session = session(id);
    while (!session.path("state").asText().equals(state)) {
      if (System.nanoTime() > deadline) {
        fail("session %s never read %s: %s; its screen:%n%s", id, state, session, peek(id));
      }
      Thread.sleep(100);
      session = session(id);
    }
    return session;
  }

  private static String peek(String id) throws Exception {
    JsonNode peek =
        ThrowawayEngine.json(engine.get("/api/sessions/" + id + "/peek?lines=40", reader).body());
    List<String> lines = new ArrayList<>();
    peek.path("lines").forEach(line -> lines.add(line.asText()));
    return String.join("\n", lines);
  }

  /** Runs a setup command in {@code dir} and returns what it printed; it must succeed. */
  private static String run(Path dir, String... command) throws Exception {
    return run(dir, Map.of(), command);
  }

  private static String run(Path dir, Map<String, String> env, String... command) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
    builder.environment().putAll(env);
    builder.redirectErrorStream(true);
    Process process = builder.start();
    process.getOutputStream().close();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(String.join(" ", command)).isTrue();
    assertThat(process.exitValue()).as(String.join(" ", command) + ": " + out).isZero();
    return out;
  }

  /**
   * An apt of the suite's own under {@code root}: its configuration, a package list with {@code
   * clique-demo} (which needs {@code clique-demo-lib}, so installing it asks), an empty status
   * file, its own cache; no lock is taken and its dpkg is {@code false}, so nothing of the
   * machine's is read or changed even if it were answered yes.
   */
  private static Path throwawayApt(Path root) throws Exception {
    for (String dir :
        List.of(
            "repo",
            "etc/apt.conf.d",
            "etc/preferences.d",
            "etc/sources.list.d",
            "state/lists/partial",
            "cache/archives/partial",
            "log")) {
      Files.createDirectories(root.resolve(dir));
    }
    Files.writeString(root.resolve("state/status"), "");
    Files.writeString(
        root.resolve("repo/Packages"),
        """
        Package: clique-demo
        Version: 1.0
        Architecture: all
        Depends: clique-demo-lib
        Filename: ./clique-demo_1.0_all.deb
        Size: 1024
        Description: a package only this suite lists

        Package: clique-demo-lib
        Version: 1.0
        Architecture: all
        Filename: ./clique-demo-lib_1.0_all.deb
        Size: 2048
        Description: what clique-demo needs

        """);
    Files.writeString(
        root.resolve("etc/sources.list"),
        "deb [trusted=yes] file:" + root.resolve("repo") + " ./\n");
    Files.writeString(
        root.resolve("apt.conf"),
        String.join(
            "\n",
            "Dir::Etc \"" + root.resolve("etc") + "\";",
            "Dir::State \"" + root.resolve("state") + "\";",
            "Dir::State::status \"" + root.resolve("state/status") + "\";",
            "Dir::Cache \"" + root.resolve("cache") + "\";",
            "Dir::Log \"" + root.resolve("log") + "\";",
            "Dir::Bin::dpkg \"/bin/false\";",
            "Debug::NoLocking \"true\";",
            ""));
    run(root, Map.of("APT_CONFIG", root.resolve("apt.conf").toString()), "apt-get", "update", "-q");
    return root;
  }
}
