package dev.clique.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clique.client.CliqueClient;
import dev.clique.client.CliqueException;
import dev.clique.fake.FakeEngine;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StartingClientTest {
  /** A real client of a port nothing listens on: every call it makes fails, saying where. */
  private static CliqueClient nobodyAt9() {
    return CliqueClient.builder()
        .baseUrl("http://127.0.0.1:9")
        .token("mxp_" + "a".repeat(43))
        .build();
  }

  @Test
  void aCallWaitsForTheEngineThenGoesToItsClient() throws Exception {
    CompletableFuture<CliqueClient> started = new CompletableFuture<>();
    CliqueClient client = StartingClient.of(started);
    CompletableFuture<String> called =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                client.sessions();
                return "answered";
              } catch (CliqueException e) {
                return e.kind() + ": " + e.getMessage();
              }
            });
    Thread.sleep(200);
    assertThat(called).as("no engine yet: the call waits").isNotDone();
    started.complete(nobodyAt9());
    assertThat(called.get(10, TimeUnit.SECONDS))
        .as("the started engine's client made the call")
        .startsWith("UNREACHABLE: ")
        .contains("127.0.0.1:9");
    assertThat(client.baseUrl()).isEqualTo(nobodyAt9().baseUrl());
  }

  @Test
  void anAsyncCallComposesWithTheStart() throws Exception {
    CompletableFuture<CliqueClient> started = new CompletableFuture<>();
    CompletableFuture<?> health = StartingClient.of(started).healthAsync();
    assertThat(health).isNotDone();
    started.complete(nobodyAt9());
    assertThatThrownBy(() -> health.get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOf(CliqueException.class)
        .hasMessageContaining("127.0.0.1:9");
  }

  @Test
  void anEngineThatCouldNotStartFailsEveryCallWithWhy() {
    CliqueClient client =
        StartingClient.of(CompletableFuture.failedFuture(new IOException("tmux is not installed")));
    assertThatThrownBy(client::sessions)
        .isInstanceOf(CliqueException.class)
        .hasMessage("could not start the embedded engine: tmux is not installed")
        .extracting(e -> ((CliqueException) e).kind())
        .isEqualTo(CliqueException.Kind.UNREACHABLE);
    assertThatThrownBy(() -> client.sessionsAsync().get(5, TimeUnit.SECONDS))
        .cause()
        .isInstanceOf(CliqueException.class)
        .hasMessage("could not start the embedded engine: tmux is not installed");
  }

  @Test
  void aCallWhoseEngineIsGoneGoesOnceMoreToTheEngineThatTookOver() throws Exception {
    try (FakeEngine successor = FakeEngine.start().servingTheContract(FakeEngine.ANY)) {
      CliqueClient gone = nobodyAt9();
      CliqueClient next =
          CliqueClient.builder().baseUrl(successor.url()).token("mxp_" + "b".repeat(43)).build();
      List<CliqueClient> asked = new ArrayList<>();
      CliqueClient client =
          StartingClient.of(
              new StartingClient.Engines() {
                @Override
                public CompletableFuture<CliqueClient> current() {
                  return CompletableFuture.completedFuture(gone);
                }

                @Override
                public CompletableFuture<CliqueClient> after(CliqueClient failed) {
                  asked.add(failed);
                  return CompletableFuture.completedFuture(next);
                }
              });
      assertThat(client.sessions()).as("answered by the successor").isNotEmpty();
      assertThat(asked).as("asked once, naming the engine that was gone").containsExactly(gone);
    }
  }

  @Test
  void aCallWhoseEngineIsGoneAndNoneTookOverFailsWithTheFirstFailure() {
    CliqueClient client =
        StartingClient.of(
            new StartingClient.Engines() {
              @Override
              public CompletableFuture<CliqueClient> current() {
                return CompletableFuture.completedFuture(nobodyAt9());
              }

              @Override
              public CompletableFuture<CliqueClient> after(CliqueClient failed) {
                return CompletableFuture.failedFuture(new IOException("nobody took over"));
              }
            });
    assertThatThrownBy(client::sessions)
        .isInstanceOf(CliqueException.class)
        .hasMessageContaining("127.0.0.1:9");
  }
}
