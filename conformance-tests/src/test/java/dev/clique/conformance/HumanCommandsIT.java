package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The commands for people ({@code clique new}, {@code ls}, {@code peek}, {@code log}, {@code stop},
 * {@code start}, {@code rm}) against a real {@code clique serve} on real tmux: no curl, no token.
 * They reach the engine over its socket in the home, which only the home's owner can open.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
class HumanCommandsIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  private record Ran(int code, String out, String err) {}

  private static Ran clique(ThrowawayEngine engine, String... args) throws Exception {
    try (Spawned command = Spawned.start(Launcher.jarCommand(args), engine.env(), engine.workdir)) {
      command.closeStdin();
      int code = command.waitFor(Duration.ofSeconds(30));
      return new Ran(code, command.stdout(), command.stderr());
    }
  }

  private static JsonNode sessions(ThrowawayEngine engine) throws Exception {
    Ran ls = clique(engine, "ls", "--json");
    assertThat(ls.code()).as(ls.err()).isZero();
    return JSON.readTree(ls.out());
  }

  private static String state(ThrowawayEngine engine, String name) throws Exception {
    for (JsonNode session : sessions(engine)) {
      if (session.path("name").asText().equals(name)) {
        return session.path("state").asText();
      }
    }
    return "gone";
  }

  private static void awaitState(ThrowawayEngine engine, String name, String state)
      throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
    while (!state(engine, name).equals(state)) {
      assertThat(System.nanoTime()).as(name + " becomes " + state).isLessThan(deadline);
      Thread.sleep(200);
    }
  }

  @Test
  void aPersonStartsListsReadsStopsAndRemovesASessionWithNoTokenAndNoCurl() throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare().start()) {
      Path socket = engine.home.resolve("engine.sock");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)))
          .as("the operator socket is the owner's alone")
          .isEqualTo("rw-------");
      Path folder = Files.createDirectories(engine.workdir.resolve("project"));

      Ran created = clique(engine, "new", "shell", folder.toString(), "--name", "work");
      assertThat(created.code()).as(created.err()).isZero();
      String id = created.out().strip();
      assertThat(id).as("the id alone on stdout: id=$(clique new ...)").matches("[0-9a-f-]{36}");
      assertThat(created.err()).isEqualTo("attach with: clique attach work\n");

      Ran attach = clique(engine, "attach", "work");
      assertThat(attach.code()).as("off a terminal").isEqualTo(2);
      assertThat(attach.err())
          .contains("attach needs a terminal")
          .contains("`clique peek work`")
          .doesNotContain("open terminal failed");

      Ran listed = clique(engine, "ls");
      assertThat(listed.code()).as(listed.err()).isZero();
      assertThat(listed.out().lines().findFirst().orElseThrow())
          .startsWith("NAME")
          .contains("CLI", "STATE", "WHY", "FOLDER", "AGE");
      assertThat(listed.out()).contains("work").contains("shell").contains(folder.toString());
      assertThat(listed.out()).as("no colours off a terminal").doesNotContain("\u001b[");
      Ran json = clique(engine, "ls", "--json");
      assertThat(json.out())
          .as("seconds as plain decimals, as the engine writes them")
          .containsPattern("\"created\":\\d{10}(\\.\\d+)?[,}]")
          .doesNotContainPattern("\\dE\\d");
      awaitState(engine, "work", "idle");

      Ran peek = clique(engine, "peek", "work", "-n", "5");
      assertThat(peek.code()).as(peek.err()).isZero();
      Ran log = clique(engine, "log", id.substring(0, 8));
      assertThat(log.code()).as(log.err()).isZero();
      assertThat(log.out()).contains("(no conversation yet)");

      assertThat(clique(engine, "stop", "work").code()).isZero();
      awaitState(engine, "work", "stopped");
      assertThat(clique(engine, "start", "work").code()).isZero();
      awaitState(engine, "work", "idle");
      assertThat(clique(engine, "rm", "work").code()).isZero();
      assertThat(state(engine, "work")).isEqualTo("gone");

      assertThat(
              Files.exists(engine.home.resolve("tokens.json"))
                  ? Files.readString(engine.home.resolve("tokens.json"))
                  : "")
          .as("no token was made for any of it")
          .doesNotContain("\"name\"");
    }
  }

  @Test
  void theReadmesQuickStartNewShellHereThenLsWorksWithNoTokenAndNoCurl() throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare().start()) {
      Ran created = clique(engine, "new", "shell", ".");
      assertThat(created.code()).as(created.err()).isZero();
      Ran listed = clique(engine, "ls");
      assertThat(listed.code()).as(listed.err()).isZero();
      assertThat(listed.out().lines().skip(1).findFirst().orElseThrow())
          .as("the shell, in the folder the command ran in")
          .contains("shell")
          .contains(engine.workdir.toRealPath().toString());
    }
  }

  @Test
  void mistakesAreOneLineNamingTheCauseAndNothingIsHalfMade() throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare().start()) {
      Ran unknownCli = clique(engine, "new", "no-such-cli", engine.workdir.toString());
      assertThat(unknownCli.code()).isNotZero();
      assertThat(unknownCli.err().strip())
          .startsWith("clique new: ")
          .contains("unknown CLI: no-such-cli (known: ")
          .contains(", claude, codex, ")
          .contains(", shell");
      assertThat(unknownCli.err().strip().lines()).hasSize(1);

      Ran missingFolder =
          clique(engine, "new", "shell", engine.workdir.resolve("nowhere").toString());
      assertThat(missingFolder.code()).isNotZero();
      assertThat(missingFolder.err())
          .startsWith("clique new: ")
          .contains("the folder " + engine.workdir.resolve("nowhere") + " does not exist");
      assertThat(sessions(engine)).as("nothing half-made").isEmpty();

      for (int i = 0; i < 2; i++) {
        assertThat(
                clique(engine, "new", "shell", engine.workdir.toString(), "--name", "twin").code())
            .isZero();
      }
      Ran ambiguous = clique(engine, "peek", "twin");
      assertThat(ambiguous.code()).isEqualTo(2);
      assertThat(ambiguous.err()).contains("'twin' names 2 sessions").contains("by its id");

      Ran unknown = clique(engine, "stop", "nobody");
      assertThat(unknown.code()).isEqualTo(3);
      assertThat(unknown.err()).contains("no session is named 'nobody'").contains("clique ls");
    }
  }

  @Test
  void aSessionAPersonRunsInTheirOwnTmuxIsReadOnlyUntilAdopted() throws Exception {
    try (PersonsTmux own = PersonsTmux.start("mine", "bash", "--norc", "--noprofile");
        ThrowawayEngine engine = ThrowawayEngine.prepare().withEnv(own.discoverShells()).start()) {
      String id = null;
      for (int i = 0; i < 50 && id == null; i++) {
        for (JsonNode session : sessions(engine)) {
          if (session.path("source").path("session").asText().equals("mine")) {
            id = session.path("id").asText();
          }
        }
        Thread.sleep(100);
      }
      assertThat(id).as("the person's shell is found").isNotNull();

      Ran refused = clique(engine, "stop", id);
      assertThat(refused.code()).isNotZero();
      assertThat(refused.err()).startsWith("clique stop: ").contains("clique adopt");

      Ran adopted = clique(engine, "adopt", id);
      assertThat(adopted.code()).as(adopted.err()).isZero();
      assertThat(adopted.out().strip()).isNotEmpty();
      Ran peek = clique(engine, "peek", adopted.out().strip(), "-n", "3");
      assertThat(peek.code()).as(peek.err()).isZero();
    }
  }

  @Test
  void withNoEngineRunningTheCommandsSayHowToStartOne() throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare()) {
      for (List<String> args : List.of(List.of("ls"), List.of("new", "shell"))) {
        Ran ran = clique(engine, args.toArray(String[]::new));
        assertThat(ran.code()).isEqualTo(1);
        assertThat(ran.err()).contains("no engine is running").contains("clique serve");
        assertThat(ran.out()).isEmpty();
      }
    }
  }
}
