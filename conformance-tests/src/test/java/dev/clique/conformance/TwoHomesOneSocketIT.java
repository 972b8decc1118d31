package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two {@code CLIQUE_HOME}s whose engines share one tmux socket, as a new home tried beside {@code
 * ~/.clique}'s running engine does with the default socket: each engine lists exactly its own
 * home's sessions and never adopts the other's, whether it starts beside them, is restarted, or is
 * killed with -9 and started again; no session is lost on the way.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
class TwoHomesOneSocketIT {
  private static final int EACH = 2;

  /** A home, its engine, an operator's token and the sessions made through it. */
  private static final class Home {
    final String name;
    final ThrowawayEngine engine;
    final String admin;
    final List<String> ids = new ArrayList<>();
    final StringBuilder log = new StringBuilder();

    Home(String name, ThrowawayEngine engine) throws Exception {
      this.name = name;
      this.engine = engine;
      this.admin = engine.mintToken(name + "-admin", false);
    }

    String create() throws Exception {
      String id = engine.createShell(admin, name + "-" + ids.size());
      ids.add(id);
      return id;
    }

    void restart() throws Exception {
      log.append(engine.serveStderr());
      engine.stop();
      engine.start();
    }

    void killAndStart() throws Exception {
      log.append(engine.serveStderr());
      engine.crash();
      engine.start();
    }

    String logs() {
      return log + engine.serveStderr();
    }
  }

  @Test
  void noSessionChangesHandsAndNoneIsLostAcrossRestartsAndKills() throws Exception {
    try (ThrowawayEngine first = ThrowawayEngine.prepare().start();
        ThrowawayEngine second = first.neighbour().start()) {
      Home a = new Home("first", first);
      Home b = new Home("second", second);
      for (int i = 0; i < EACH; i++) {
        a.create();
        b.create();
      }
      assertEachListsItsOwn(a, b, "after the creates");

      a.restart();
      awaitDecided(a, b.ids);
      assertEachListsItsOwn(a, b, "after the first engine's restart");
      b.restart();
      awaitDecided(b, a.ids);
      assertEachListsItsOwn(a, b, "after the second engine's restart");

      a.killAndStart();
      awaitDecided(a, b.ids);
      assertEachListsItsOwn(a, b, "after the first engine's kill -9");
      b.killAndStart();
      awaitDecided(b, a.ids);
      assertEachListsItsOwn(a, b, "after the second engine's kill -9");

      // Made while the other engine runs: unrecorded there for longer than the grace in which
      // a session of its own home would be recorded.
      String lateA = a.create();
      String lateB = b.create();
      awaitDecided(a, List.of(lateB));
      awaitDecided(b, List.of(lateA));
      assertEachListsItsOwn(a, b, "once each engine looked at the other's newest session");

      for (Home home : List.of(a, b)) {
        assertThat(home.logs()).as(home.name + "'s log").doesNotContain("adopted session");
      }
    }
  }

  /**
   * Waits until {@code home}'s engine said what it does with each of {@code others}, the sessions
   * of the other home: that it left it alone, or (wrongly) adopted it.
   */
  private static void awaitDecided(Home home, List<String> others) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
    while (System.nanoTime() < deadline) {
      String log = home.logs();
      if (others.stream()
          .allMatch(
              id ->
                  log.contains("left session " + id + " alone")
                      || log.contains("adopted session " + id))) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError(
        home.name + "'s engine never said what it did with " + others + ":\n" + home.logs());
  }

  /**
   * Each engine lists exactly its own home's sessions, each alive; each home's {@code state.json}
   * records exactly those; every session still runs on the socket.
   */
  private static void assertEachListsItsOwn(Home a, Home b, String when) throws Exception {
    for (Home home : List.of(a, b)) {
      Set<String> expected = Set.copyOf(home.ids);
      Set<String> listed = new HashSet<>();
      Set<String> alive = new HashSet<>();
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      do {
        listed.clear();
        alive.clear();
        for (JsonNode session :
            ThrowawayEngine.json(home.engine.get("/api/state", home.admin).body())
                .path("sessions")) {
          listed.add(session.path("id").asText());
          if (session.path("alive").asBoolean()) {
            alive.add(session.path("id").asText());
          }
        }
        if (listed.equals(expected) && alive.equals(expected)) {
          break;
        }
        Thread.sleep(100);
      } while (System.nanoTime() < deadline);
      assertThat(listed)
          .as("%s, the sessions %s's engine lists; its log:%n%s", when, home.name, home.logs())
          .containsExactlyInAnyOrderElementsOf(expected);
      assertThat(alive).as("%s, alive in %s's listing", when, home.name).isEqualTo(expected);

      Set<String> recorded = new HashSet<>();
      ThrowawayEngine.json(Files.readString(home.engine.home.resolve("state.json")))
          .path("sessions")
          .forEach(s -> recorded.add(s.path("id").asText()));
      assertThat(recorded)
          .as("%s, the sessions %s's state.json records", when, home.name)
          .containsExactlyInAnyOrderElementsOf(expected);
    }
    List<String> all = new ArrayList<>(a.ids);
    all.addAll(b.ids);
    assertThat(Tmux.sessions(a.engine.socket))
        .as("%s, the sessions on the shared socket", when)
        .containsExactlyInAnyOrderElementsOf(all);
  }
}
