package dev.clique.engine.session;

import static dev.clique.engine.testing.EngineSandbox.await;
import static dev.clique.engine.testing.EngineSandbox.view;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clique.engine.testing.EngineSandbox;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pane that prints 50 MB as fast as it can, on real tmux beside a session that asks a question:
 * the engine reads screens, never the stream, so its memory stays what it was, the flooding session
 * is working while it prints and idle after, and the other session's state holds.
 */
class FloodIT {
  /** Heap the engine may grow by while 50 MB go through tmux (its screens are 200 x 50). */
  static final long HEAP_GROWTH_MAX = 32L << 20;

  @TempDir Path dir;
  private EngineSandbox sandbox;
  private SessionService service;

  @BeforeEach
  void sandbox() throws Exception {
    sandbox = new EngineSandbox(dir);
    service = sandbox.service();
  }

  @AfterEach
  void cleanUp() {
    sandbox.close();
  }

  @Test
  void fiftyMegabytesAsFastAsAPaneCanPrintLeaveTheEngineAsItWasAndAnotherSessionAsking()
      throws Exception {
    String asking = sandbox.create(service, "shell").id();
    String flooding = sandbox.create(service, "shell").id();
    await(service, asking, Duration.ofSeconds(10), "idle");
    await(service, flooding, Duration.ofSeconds(10), "idle");
    service.send(asking, "read -p 'Overwrite the build? (y/n) ' answer", true, null);
    await(service, asking, Duration.ofSeconds(10), "waiting");

    long heapBefore = settledHeap();
    service.send(
        flooding,
        "head -c 50000000 /dev/zero | tr '\\0' 'x' | fold -w 199; echo; echo flood-done-$((6*7))",
        true,
        null);
    await(service, flooding, Duration.ofSeconds(10), "working");

    Set<String> askingSaw = new LinkedHashSet<>();
    List<String> floodingSaw = new ArrayList<>();
    long peakHeap = 0;
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    while (!printedDone(flooding) && System.nanoTime() < deadline) {
      askingSaw.add(view(service, asking).state());
      floodingSaw.add(view(service, flooding).state());
      peakHeap = Math.max(peakHeap, usedHeap());
      Thread.sleep(100);
    }
    assertThat(printedDone(flooding))
        .as("the flood ended within 120 s; its pane:%n%s", EngineSandbox.pane(service, flooding))
        .isTrue();
    await(service, flooding, Duration.ofSeconds(10), "idle");
    long heapAfter = settledHeap();
    System.err.printf(
        "flood | 50 MB through one pane: %d looks; heap settled %d MiB before, %d MiB after, peak"
            + " %d MiB; the asking session read %s%n",
        floodingSaw.size(), heapBefore >> 20, heapAfter >> 20, peakHeap >> 20, askingSaw);

    assertThat(askingSaw).as("the other session while 50 MB went by").containsOnly("waiting");
    assertThat(floodingSaw).as("the flooding session while it printed").containsOnly("working");
    assertThat(heapAfter - heapBefore)
        .as("heap kept by the engine after 50 MB of output (bytes)")
        .isLessThan(HEAP_GROWTH_MAX);
  }

  private boolean printedDone(String id) throws Exception {
    return service.peek(id, 5).lines().stream().anyMatch(line -> line.equals("flood-done-42"));
  }

  private static long usedHeap() {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    return memory.getHeapMemoryUsage().getUsed();
  }

  /** Used heap after a collection: what is kept, not what waits to be collected. */
  private static long settledHeap() throws InterruptedException {
    System.gc();
    Thread.sleep(200);
    return usedHeap();
  }
}
