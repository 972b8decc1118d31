package dev.clique.engine.notify;

import static dev.clique.engine.notify.Views.waiting;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.clique.engine.testing.MutableClock;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Delivery against a receiver on loopback that records what arrives, and commands. */
class DeliveryTest {
  private static final Duration PAUSE = Duration.ofMillis(50);

  private HttpServer receiver;
  private final ConcurrentLinkedQueue<String> bodies = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<String> authorizations = new ConcurrentLinkedQueue<>();
  private final AtomicInteger requests = new AtomicInteger();
  private final CountDownLatch never = new CountDownLatch(1);
  private Lane lane;

  /**
   * A receiver that answers each request with the next of {@code statuses} (the last repeated); -1
   * never answers.
   */
  private URI receive(int... statuses) throws IOException {
    receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    receiver.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
    receiver.createContext(
        "/",
        exchange -> {
          int n = requests.getAndIncrement();
          bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          String authorization = exchange.getRequestHeaders().getFirst("Authorization");
          if (authorization != null) {
            authorizations.add(authorization);
          }
          int status = statuses[Math.min(n, statuses.length - 1)];
          if (status < 0) {
            try {
              never.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          exchange.sendResponseHeaders(status < 0 ? 200 : status, -1);
          exchange.close();
        });
    receiver.start();
    return URI.create("http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook/secret");
  }

  @AfterEach
  void tearDown() {
    never.countDown();
    if (lane != null) {
      lane.close();
    }
    if (receiver != null) {
      receiver.stop(0);
    }
  }

  private static Target.Webhook webhook(URI url, Map<String, String> headers, int perMinute) {
    return new Target.Webhook(
        "webhook 1 (" + Target.masked(url) + ")",
        url,
        Format.JSON,
        headers,
        null,
        Selection.ALL,
        perMinute);
  }

  private Lane lane(Target.Webhook target, Duration answerLimit, Clock clock) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    lane =
        Lane.start(
            target,
            new WebhookSender(target, http, answerLimit, "http://127.0.0.1:1"),
            clock,
            Lane.CAPACITY,
            PAUSE);
    return lane;
  }

  private static Notice notice(String name) {
    return new Notice(
        Event.WAITING, List.of(waiting("s1", name, "question", "Continue? (y/n)")), Instant.now());
  }

  private static void awaitTrue(BooleanSupplier condition, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 20 s: " + what);
      }
      Thread.sleep(10);
    }
  }

  @Test
  void a500ThenA200IsDeliveredOnceWithTheHeadersOfItsFile() throws Exception {
    URI url = receive(500, 200);
    Lane lane =
        lane(
            webhook(url, Map.of("Authorization", "Bearer tk_secret"), 20),
            Duration.ofSeconds(5),
            Clock.systemUTC());
    lane.offer(notice("api"));
    awaitTrue(() -> lane.delivered() == 1, "delivered");
    Thread.sleep(PAUSE.toMillis() * 8);
    assertThat(requests.get()).as("one failed try, one delivery, nothing after").isEqualTo(2);
    assertThat(bodies)
        .allSatisfy(
            body ->
                assertThat(body)
                    .contains("\"event\":\"waiting\"")
                    .contains("Continue? (y/n)")
                    .doesNotContain("tk_secret"));
    assertThat(authorizations).containsOnly("Bearer tk_secret");
  }

  @Test
  void a400IsNotTriedAgain() throws Exception {
    URI url = receive(400);
    Lane lane = lane(webhook(url, Map.of(), 20), Duration.ofSeconds(5), Clock.systemUTC());
    lane.offer(notice("api"));
    awaitTrue(() -> requests.get() == 1, "the first try");
    Thread.sleep(PAUSE.toMillis() * 16); // past every pause before a try again
    assertThat(requests.get()).isEqualTo(1);
    assertThat(lane.delivered()).isZero();
  }

  @Test
  void aReceiverThatNeverAnswersNeverHoldsThePublisher() throws Exception {
    URI url = receive(-1);
    Lane lane = lane(webhook(url, Map.of(), 600), Duration.ofMillis(300), Clock.systemUTC());
    lane.offer(notice("first"));
    awaitTrue(() -> requests.get() == 1, "the first request is held");
    long slowest = 0;
    long started = System.nanoTime();
    for (int i = 0; i < 1_000; i++) {
      long one = System.nanoTime();
      lane.offer(notice("n" + i));
      slowest = Math.max(slowest, System.nanoTime() - one);
    }
    long all = System.nanoTime() - started;
    System.out.printf(
        "1000 notices offered to a lane whose receiver never answers: %.2f ms in all, the slowest %.3f ms%n",
        all / 1e6, slowest / 1e6);
    assertThat(Duration.ofNanos(slowest)).isLessThan(Duration.ofMillis(50));
    assertThat(Duration.ofNanos(all)).isLessThan(Duration.ofMillis(500));
    assertThat(lane.delivered()).isZero();
  }

  @Test
  void aFullQueueDropsItsOldest() throws Exception {
    URI url = receive(-1, 200);
    Target.Webhook target = webhook(url, Map.of(), 600);
    HttpClient http = HttpClient.newBuilder().build();
    lane =
        Lane.start(
            target,
            new WebhookSender(target, http, Duration.ofSeconds(30), "http://127.0.0.1:1"),
            Clock.systemUTC(),
            4,
            PAUSE);
    lane.offer(notice("held"));
    awaitTrue(() -> requests.get() == 1, "the first is held by the receiver");
    for (int i = 0; i < 10; i++) {
      lane.offer(notice("n" + i));
    }
    never.countDown();
    awaitTrue(() -> lane.delivered() == 5, "the held one and the four newest");
    Thread.sleep(200);
    assertThat(requests.get()).isEqualTo(5);
    assertThat(bodies.stream().map(b -> b.replaceAll(".*\"name\":\"([^\"]*)\".*", "$1")))
        .containsExactly("held", "n6", "n7", "n8", "n9");
  }

  @Test
  void theRateLimitDropsWhatIsOverItUntilTheMinuteIsOver() throws Exception {
    URI url = receive(200);
    MutableClock clock = MutableClock.start();
    Lane lane = lane(webhook(url, Map.of(), 3), Duration.ofSeconds(5), clock);
    for (int i = 0; i < 5; i++) {
      lane.offer(notice("n" + i));
    }
    awaitTrue(() -> lane.delivered() == 3, "three delivered");
    Thread.sleep(300);
    assertThat(requests.get()).isEqualTo(3);
    clock.advance(Duration.ofSeconds(61));
    lane.offer(notice("later"));
    awaitTrue(() -> lane.delivered() == 4, "a new minute's first");
    assertThat(bodies).last().asString().contains("later");
  }

  @Test
  void aCommandGetsTheNoticeOnStdinAndItsWordsFilledIn(@TempDir Path dir) throws Exception {
    Path got = dir.resolve("got");
    Target.Command target =
        new Target.Command(
            "command 1 (sh)",
            List.of(
                "sh",
                "-c",
                "cat > \"$0\"; printf '%s|%s' \"$1\" \"$2\" >> \"$0\"",
                got.toString(),
                "{title}",
                "{event}"),
            Duration.ofSeconds(10),
            Selection.ALL,
            20);
    Outcome outcome = new CommandSender(target, "http://127.0.0.1:1").send(notice("api"));
    assertThat(outcome.kind()).isEqualTo(Outcome.Kind.DELIVERED);
    String written = Files.readString(got);
    assertThat(written)
        .contains("\"event\":\"waiting\"")
        .contains("Continue? (y/n)")
        .endsWith("api needs you|waiting");
  }

  @Test
  void aCommandThatHangsIsKilledAtItsLimitWithWhatItStarted(@TempDir Path dir) throws Exception {
    Path pid = dir.resolve("pid");
    Target.Command target =
        new Target.Command(
            "command 1 (sh)",
            List.of("sh", "-c", "echo started; sleep 60 & echo $! > \"$0\"; wait", pid.toString()),
            Duration.ofMillis(500),
            Selection.ALL,
            20);
    long started = System.nanoTime();
    Outcome outcome = new CommandSender(target, "http://127.0.0.1:1").send(notice("api"));
    long took = (System.nanoTime() - started) / 1_000_000;
    System.out.printf("a hanging command answered after %d ms: %s%n", took, outcome.said());
    assertThat(outcome.kind()).isEqualTo(Outcome.Kind.FAILED);
    assertThat(outcome.said()).startsWith("was stopped after 0.5 s").endsWith(": started");
    assertThat(took).isLessThan(5_000);
    long sleeper = Long.parseLong(Files.readString(pid).strip());
    awaitTrue(
        () -> ProcessHandle.of(sleeper).map(p -> !p.isAlive()).orElse(true),
        "its sleep is killed too");
  }

  @Test
  void aFailingCommandSaysWhatItPrinted() throws Exception {
    Target.Command target =
        new Target.Command(
            "command 1 (sh)",
            List.of("sh", "-c", "echo 'no display'; exit 3"),
            Duration.ofSeconds(10),
            Selection.ALL,
            20);
    Outcome outcome = new CommandSender(target, "http://127.0.0.1:1").send(notice("api"));
    assertThat(outcome).isEqualTo(Outcome.failed("exited with status 3: no display"));
  }

  @Test
  void aHeadersFileOthersMayReadIsRefusedSayingWhyAndTheOtherTargetsGoOn(@TempDir Path dir)
      throws Exception {
    Path headers =
        Files.writeString(dir.resolve("ntfy.headers"), "Authorization: Bearer tk_secret\n");
    Files.setPosixFilePermissions(headers, PosixFilePermissions.fromString("rw-r--r--"));
    Path file =
        Files.writeString(
            dir.resolve("notify.toml"),
            String.join(
                "\n",
                "[[webhook]]",
                "url = \"https://ntfy.sh/topic\"",
                "format = \"ntfy\"",
                "headers_file = \"ntfy.headers\"",
                "",
                "[[command]]",
                "run = [\"notify-send\", \"{title}\"]",
                ""));
    List<String> problems = new java.util.ArrayList<>();
    NotifyConfig config = NotifyConfig.read(file, problems::add);
    assertThat(config.targets()).singleElement().isInstanceOf(Target.Command.class);
    assertThat(problems)
        .singleElement()
        .asString()
        .startsWith(file + " line 4: ")
        .contains("can be read by others than its owner (mode rw-r--r--)")
        .contains("chmod 600")
        .doesNotContain("tk_secret");

    Files.setPosixFilePermissions(headers, PosixFilePermissions.fromString("rw-------"));
    problems.clear();
    config = NotifyConfig.read(file, problems::add);
    assertThat(problems).isEmpty();
    Target.Webhook webhook = (Target.Webhook) config.targets().get(0);
    assertThat(webhook.headers()).containsEntry("Authorization", "Bearer tk_secret");
    assertThat(webhook.toString()).isEqualTo("webhook 1 (https://ntfy.sh/***)");
  }

  @Test
  void mistakesAreSaidWithTheirLineAndTheRestGoesOn(@TempDir Path dir) throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("notify.toml"),
            String.join(
                "\n",
                "[rules]",
                "dwell_seconds = 1.5",
                "finished_after_seconds = 60",
                "remind_every_seconds = 300",
                "skip_when_watched = false",
                "",
                "[[webhook]]",
                "url = \"https://example.com/a\"",
                "headers = { Authorization = \"Bearer x\" }",
                "",
                "[[webhook]]",
                "url = \"https://example.com/b\"",
                "events = [\"waiting\", \"typo\"]",
                "",
                "[[webhook]]",
                "url = \"https://example.com/c\"",
                "format = \"slack\"",
                "events = [\"finished\"]",
                "cli = \"claude\"",
                "name = \"api-*\"",
                ""));
    List<String> problems = new java.util.ArrayList<>();
    NotifyConfig config = NotifyConfig.read(file, problems::add);
    assertThat(config.rules().dwell()).isEqualTo(Duration.ofMillis(1500));
    assertThat(config.rules().finishedAfter()).isEqualTo(Duration.ofSeconds(60));
    assertThat(config.rules().remindEvery()).isEqualTo(Duration.ofSeconds(300));
    assertThat(config.rules().skipWhenWatched()).isFalse();
    assertThat(problems).hasSize(2);
    assertThat(problems.get(0))
        .startsWith(file + " line 9: unknown key `headers`")
        .contains("headers_file");
    assertThat(problems.get(1)).startsWith(file + " line 13: unknown event `typo`");
    Target.Webhook kept = (Target.Webhook) config.targets().get(0);
    assertThat(kept.label()).isEqualTo("webhook 3 (https://example.com/***)");
    assertThat(kept.format()).isEqualTo(Format.SLACK);
    Notice finished =
        new Notice(
            Event.FINISHED,
            List.of(
                Views.view("a", "api-1", "claude", "idle", null, null, null),
                Views.view("b", "web", "claude", "idle", null, null, null),
                Views.view("c", "api-2", "codex", "idle", null, null, null)),
            Instant.now());
    assertThat(kept.selection().pick(finished).sessions())
        .extracting(v -> v.id())
        .containsExactly("a");
    assertThat(kept.selection().pick(notice("api-1"))).as("not its event").isNull();

    Files.writeString(file, "[[webhook]]\nurl = \"https://example.com/a\" x\n");
    problems.clear();
    assertThat(NotifyConfig.read(file, problems::add).targets()).isEmpty();
    assertThat(problems)
        .singleElement()
        .asString()
        .startsWith(file + " line 2: ")
        .endsWith(": no notification is sent until it is fixed");
  }
}
