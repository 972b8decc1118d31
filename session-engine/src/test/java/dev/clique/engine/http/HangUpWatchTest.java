package dev.clique.engine.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.clique.engine.http.HangUpWatch.Connection;
import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class HangUpWatchTest {
  private static final InetSocketAddress ENGINE = new InetSocketAddress("127.0.0.1", 7000);

  private static InetSocketAddress client(int port) {
    return new InetSocketAddress("127.0.0.1", port);
  }

  /** A table whose next read answers what {@code next} gives. */
  private static final class Scripted implements HangUpWatch.Table {
    Supplier<Set<Connection>> next = HashSet::new;

    @Override
    public Set<Connection> open() {
      return next.get();
    }
  }

  @Test
  void aClientThatHungUpIsNoticedAtTheNextLookAndOnlyOnce() throws Exception {
    Scripted table = new Scripted();
    AtomicInteger hungUp = new AtomicInteger();
    try (HangUpWatch watch = new HangUpWatch(table, false)) {
      watch.watch(ENGINE, client(40001), hungUp::incrementAndGet);
      table.next = () -> Set.of(new Connection(7000, 40001));
      watch.look();
      assertEquals(0, hungUp.get(), "the connection is open");
      table.next = HashSet::new;
      watch.look();
      watch.look();
      assertEquals(1, hungUp.get(), "gone from the table: hung up, once");
    }
  }

  @Test
  void aRequestHeldWhileTheTableWasReadIsNotJudgedByThatRead() throws Exception {
    Scripted table = new Scripted();
    AtomicInteger hungUp = new AtomicInteger();
    try (HangUpWatch watch = new HangUpWatch(table, false)) {
      watch.watch(ENGINE, client(40001), () -> {});
      // The connection of 40002 is made, and its request held, while the table is being read:
      // the table read does not list it, yet its client is there.
      table.next =
          () -> {
            watch.watch(ENGINE, client(40002), hungUp::incrementAndGet);
            return Set.of(new Connection(7000, 40001));
          };
      watch.look();
      assertEquals(0, hungUp.get(), "a read begun before the request cannot tell of its client");
      table.next = () -> Set.of(new Connection(7000, 40001), new Connection(7000, 40002));
      watch.look();
      assertEquals(0, hungUp.get(), "listed by the next read: open");
      table.next = () -> Set.of(new Connection(7000, 40001));
      watch.look();
      assertEquals(1, hungUp.get(), "then gone: hung up");
    }
  }

  @Test
  void theEndOfAnEarlierRequestOnAReusedPortDoesNotStopWatchingTheNewOne() throws Exception {
    Scripted table = new Scripted();
    AtomicInteger second = new AtomicInteger();
    try (HangUpWatch watch = new HangUpWatch(table, false)) {
      AutoCloseable first = watch.watch(ENGINE, client(40001), () -> {});
      watch.watch(ENGINE, client(40001), second::incrementAndGet);
      first.close();
      table.next = HashSet::new;
      watch.look();
      assertEquals(1, second.get(), "the later request on port 40001 is still watched");
    }
  }

  @Test
  void anUnreadableTableDecidesNothing() throws Exception {
    Scripted table = new Scripted();
    AtomicInteger hungUp = new AtomicInteger();
    try (HangUpWatch watch = new HangUpWatch(table, false)) {
      watch.watch(ENGINE, client(40001), hungUp::incrementAndGet);
      table.next = () -> null;
      watch.look();
      assertEquals(0, hungUp.get());
    }
  }
}
