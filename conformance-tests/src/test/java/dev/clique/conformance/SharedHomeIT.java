package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two {@code clique serve} on one {@code CLIQUE_HOME}: every session either acknowledged is in
 * {@code state.json} and listed by both; none runs on in tmux unrecorded.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
class SharedHomeIT {
  private static final int CREATES = 72;

  /**
   * A shell that starts as slowly as one that runs a version manager's init: a few dozen processes
   * and a wait, before its prompt. A create must not wait for it.
   */
  private static final String HEAVY_BASHRC =
      "for i in $(seq 1 30); do /bin/true; done; sleep 0.5\nPS1='$ '\n";

  @Test
  void noAcknowledgedSessionIsLostBetweenTwoEnginesOnOneHome() throws Exception {
    try (ThrowawayEngine first = ThrowawayEngine.prepare().withUserHome(HEAVY_BASHRC).start();
        ThrowawayEngine second = first.sibling().start()) {
      String admin = first.mintToken("shared-admin", false);
      ExecutorService pool = Executors.newFixedThreadPool(8);
      List<Future<String>> created = new ArrayList<>();
      try {
        for (int i = 0; i < CREATES; i++) {
          ThrowawayEngine engine = i % 2 == 0 ? first : second;
          String name = "shared-" + i;
          created.add(pool.submit(() -> engine.createShell(admin, name)));
        }
        Set<String> acknowledged = new HashSet<>();
        for (Future<String> future : created) {
          acknowledged.add(future.get());
        }
        assertThat(acknowledged).hasSize(CREATES);

        JsonNode file = ThrowawayEngine.json(Files.readString(first.home.resolve("state.json")));
        Set<String> recorded = new HashSet<>();
        file.path("sessions").forEach(s -> recorded.add(s.path("id").asText()));
        assertThat(recorded).as("state.json").containsAll(acknowledged);
        assertThat(Tmux.sessions(first.socket))
            .as(() -> "tmux; the engines' logs:\n" + first.serveStderr() + second.serveStderr())
            .containsExactlyInAnyOrderElementsOf(recorded);
        for (ThrowawayEngine engine : List.of(first, second)) {
          Set<String> listed = new HashSet<>();
          long deadline = System.nanoTime() + 5_000_000_000L;
          while (!listed.containsAll(acknowledged) && System.nanoTime() < deadline) {
            listed.clear();
            ThrowawayEngine.json(engine.get("/api/state", admin).body())
                .path("sessions")
                .forEach(s -> listed.add(s.path("id").asText()));
            Thread.sleep(100);
          }
          assertThat(listed).as("listed by " + engine.url).containsAll(acknowledged);
        }
      } finally {
        pool.shutdownNow();
      }
    }
  }
}
