package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One engine per {@code CLIQUE_HOME}, however many assistants embed it: three {@code clique mcp
 * --embedded} started at once run one engine between them, all three see the same sessions, and
 * when the process that runs it is killed with -9 another takes over within a second or so; beside
 * a {@code clique serve}, {@code clique mcp --embedded} runs none of its own. Which process runs an
 * engine is read from {@code /proc}: the one that listens on a TCP port.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
class OneEnginePerHomeIT {
  /**
   * How long a call made right after the engine's process was killed may take, at least: on a
   * machine so loaded that the three assistants took longer to start and answer, that long.
   */
  private static final Duration TAKEOVER = Duration.ofMillis(1500);

  private static Spawned embedded(ThrowawayEngine home) throws IOException {
    return Spawned.start(Launcher.jarCommand("mcp", "--embedded"), home.env(), home.workdir);
  }

  @Test
  void threeAssistantsShareOneEngineAndAnotherTakesOverWhenItsProcessIsKilled() throws Exception {
    try (ThrowawayEngine home = ThrowawayEngine.prepare()) {
      List<Spawned> mcps = new ArrayList<>();
      try {
        long spawned = System.nanoTime();
        for (int i = 0; i < 3; i++) {
          mcps.add(embedded(home));
        }
        List<McpDialogue> dialogues = new ArrayList<>();
        for (Spawned mcp : mcps) {
          McpDialogue dialogue = new McpDialogue(mcp);
          dialogue.initialize("2025-11-25");
          dialogues.add(dialogue);
        }
        for (McpDialogue dialogue : dialogues) {
          assertAnswered(dialogue.callTool("list_sessions", Map.of()));
        }
        Duration started = Duration.ofNanos(System.nanoTime() - spawned);
        List<Spawned> running = engines(mcps);
        assertThat(running).as("processes that run an engine").hasSize(1);
        Spawned holder = running.get(0);
        assertThat(advertisedPid(home)).isEqualTo(holder.pid());

        String admin = home.mintToken("one-engine-admin", false);
        home.url = advertisedUrl(home);
        String id = home.createShell(admin, "made-through-one");
        for (McpDialogue dialogue : dialogues) {
          assertThat(eventuallyListed(dialogue, id)).as("listed by every assistant").contains(id);
        }

        ProcessHandle.of(holder.pid()).ifPresent(ProcessHandle::destroyForcibly);
        long killed = System.nanoTime();
        List<McpDialogue> survivors = new ArrayList<>();
        for (int i = 0; i < mcps.size(); i++) {
          if (mcps.get(i) != holder) {
            survivors.add(dialogues.get(i));
          }
        }
        JsonNode first = survivors.get(0).callTool("list_sessions", Map.of());
        Duration took = Duration.ofNanos(System.nanoTime() - killed);
        System.err.println(
            "a call right after the kill -9 answered in "
                + took.toMillis()
                + " ms (the three started and answered in "
                + started.toMillis()
                + " ms)");
        assertAnswered(first);
        assertThat(took)
            .as("a call made right after the kill (the three started in %d ms)", started.toMillis())
            .isLessThan(started.compareTo(TAKEOVER) > 0 ? started : TAKEOVER);
        assertAnswered(survivors.get(1).callTool("list_sessions", Map.of()));
        holder.waitFor(Duration.ofSeconds(5));
        List<Spawned> alive = mcps.stream().filter(m -> m != holder).toList();
        assertThat(engines(alive)).as("processes that run an engine after the kill").hasSize(1);
        assertThat(advertisedPid(home)).isEqualTo(engines(alive).get(0).pid());
        for (McpDialogue dialogue : survivors) {
          assertThat(eventuallyListed(dialogue, id)).contains(id);
        }

        // The token the killed process minted is swept by the next one to start.
        try (Spawned late = embedded(home)) {
          McpDialogue dialogue = new McpDialogue(late);
          dialogue.initialize("2025-11-25");
          assertThat(eventuallyListed(dialogue, id)).contains(id);
          assertThat(engines(List.of(late))).as("the late one runs no engine").isEmpty();
          assertThat(tokenNames(home)).noneMatch(n -> n.endsWith("pid " + holder.pid()));
          late.closeStdin();
          assertThat(late.waitFor(Duration.ofSeconds(5))).isZero();
        }

        for (Spawned mcp : alive) {
          mcp.closeStdin();
        }
        for (Spawned mcp : alive) {
          long closed = System.nanoTime();
          assertThat(mcp.waitFor(Duration.ofSeconds(5))).isZero();
          assertThat(Duration.ofNanos(System.nanoTime() - closed))
              .as("exits promptly, waiting for the engine or running it")
              .isLessThan(Duration.ofSeconds(2));
          assertThat(mcp.stdout() + mcp.stderr()).doesNotContain("mxp_");
        }
        assertThat(tokenNames(home))
            .as("each process revoked its own token as it exited")
            .noneMatch(n -> n.startsWith("mcp-embedded"));
        assertThat(home.home.resolve("engine.json")).doesNotExist();
      } finally {
        mcps.forEach(Spawned::close);
      }
    }
  }

  @Test
  void besideAServeTheEmbeddedServerStartsNoEngineOfItsOwn() throws Exception {
    try (ThrowawayEngine serve = ThrowawayEngine.prepare().start()) {
      String admin = serve.mintToken("beside-serve-admin", false);
      String id = serve.createShell(admin, "made-by-serve");
      try (Spawned mcp = embedded(serve)) {
        McpDialogue dialogue = new McpDialogue(mcp);
        dialogue.initialize("2025-11-25");
        assertThat(eventuallyListed(dialogue, id)).contains(id);
        assertThat(engines(List.of(mcp))).as("the embedded server runs no engine").isEmpty();
        assertThat(advertisedUrl(serve)).isEqualTo(serve.url);
        long pid = mcp.pid();
        assertThat(tokenNames(serve)).contains("mcp-embedded pid " + pid);
        mcp.closeStdin();
        assertThat(mcp.waitFor(Duration.ofSeconds(5))).isZero();
        assertThat(tokenNames(serve)).doesNotContain("mcp-embedded pid " + pid);
      }
    }
  }

  private static void assertAnswered(JsonNode called) {
    assertThat(called.at("/result/isError").asBoolean(true)).as("%s", called).isFalse();
  }

  /** The ids {@code list_sessions} gives once it includes {@code id}, or after 10 s. */
  private static Set<String> eventuallyListed(McpDialogue dialogue, String id) throws Exception {
    Set<String> ids = new HashSet<>();
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!ids.contains(id) && System.nanoTime() < deadline) {
      ids.clear();
      dialogue
          .callTool("list_sessions", Map.of())
          .at("/result/structuredContent/sessions")
          .forEach(s -> ids.add(s.path("id").asText()));
      Thread.sleep(100);
    }
    return ids;
  }

  /** Those of {@code processes} that listen on a TCP port: the ones that run an engine. */
  private static List<Spawned> engines(List<Spawned> processes) throws IOException {
    Set<String> listening = new HashSet<>();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      Path file = Path.of(table);
      if (!Files.exists(file)) {
        continue;
      }
      for (String line : Files.readAllLines(file)) {
        String[] fields = line.trim().split("\\s+");
        if (fields.length > 9 && fields[3].equals("0A")) { // TCP_LISTEN
          listening.add("socket:[" + fields[9] + "]");
        }
      }
    }
    List<Spawned> engines = new ArrayList<>();
    for (Spawned process : processes) {
      try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(process.pid()), "fd"))) {
        if (fds.anyMatch(fd -> listening.contains(linkOf(fd)))) {
          engines.add(process);
        }
      }
    }
    return engines;
  }

  private static String linkOf(Path fd) {
    try {
      return Files.readSymbolicLink(fd).toString();
    } catch (IOException e) {
      return "";
    }
  }

  private static JsonNode advert(ThrowawayEngine home) throws IOException {
    return ThrowawayEngine.json(Files.readString(home.home.resolve("engine.json")));
  }

  private static String advertisedUrl(ThrowawayEngine home) throws IOException {
    return advert(home).path("url").asText();
  }

  private static long advertisedPid(ThrowawayEngine home) throws IOException {
    return advert(home).path("pid").asLong();
  }

  private static List<String> tokenNames(ThrowawayEngine home) throws IOException {
    List<String> names = new ArrayList<>();
    Path tokens = home.home.resolve("tokens.json");
    if (Files.exists(tokens)) {
      ThrowawayEngine.json(Files.readString(tokens))
          .path("tokens")
          .forEach(t -> names.add(t.path("name").asText()));
    }
    return names;
  }
}
