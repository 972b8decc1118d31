package dev.clique.conformance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Several machines for engines, made by the test: each a network namespace of its own joined to
 * this one by a veth pair, with an address of the test's own ({@code 10.X.i.2}, this side {@code
 * 10.X.i.1}). An engine started on one listens on its address only, so nothing else reaches it but
 * over that link. Where namespaces cannot be made (not root, no {@code ip}), the hosts are loopback
 * addresses ({@code 127.0.X.i}), and {@link #kind()} says so.
 */
final class EngineHosts implements AutoCloseable {
  /** One machine: where its engine listens, and how a command is run on it. */
  record Host(String address, List<String> exec) {
    /** {@code command} as this host runs it. */
    List<String> run(List<String> command) {
      List<String> wrapped = new ArrayList<>(exec);
      wrapped.addAll(command);
      return wrapped;
    }
  }

  private final List<Host> hosts;
  private final List<String> namespaces;

  private EngineHosts(List<Host> hosts, List<String> namespaces) {
    this.hosts = List.copyOf(hosts);
    this.namespaces = List.copyOf(namespaces);
  }

  /** {@code count} hosts: namespaces when they can be made, else loopback addresses. */
  static EngineHosts create(int count) throws IOException, InterruptedException {
    int net = ThreadLocalRandom.current().nextInt(100, 250);
    String tag = Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
    List<Host> hosts = new ArrayList<>();
    List<String> made = new ArrayList<>();
    try {
      for (int i = 1; i <= count; i++) {
        String ns = "clique-it-" + tag + "-" + i;
        String outside = "cq" + tag + "h" + i;
        String inside = "cq" + tag + "n" + i;
        String prefix = "10." + net + "." + i + ".";
        ip("netns", "add", ns);
        made.add(ns);
        ip("link", "add", outside, "type", "veth", "peer", "name", inside);
        ip("link", "set", inside, "netns", ns);
        ip("addr", "add", prefix + "1/30", "dev", outside);
        ip("link", "set", outside, "up");
        ip("-n", ns, "addr", "add", prefix + "2/30", "dev", inside);
        ip("-n", ns, "link", "set", inside, "up");
        ip("-n", ns, "link", "set", "lo", "up");
        hosts.add(new Host(prefix + "2", List.of("ip", "netns", "exec", ns)));
      }
      return new EngineHosts(hosts, made);
    } catch (IOException e) {
      new EngineHosts(List.of(), made).close();
      System.err.println("engine hosts: no network namespaces here (" + e.getMessage() + ")");
      List<Host> loopback = new ArrayList<>();
      for (int i = 1; i <= count; i++) {
        loopback.add(new Host("127.0." + net + "." + i, List.of()));
      }
      return new EngineHosts(loopback, List.of());
    }
  }

  List<Host> hosts() {
    return hosts;
  }

  /** What the hosts are, for the test's report. */
  String kind() {
    return namespaces.isEmpty()
        ? "loopback addresses (no network namespaces here)"
        : "network namespaces joined by veth pairs";
  }

  boolean namespaces() {
    return !namespaces.isEmpty();
  }

  /** Removes the namespaces, and with them the links into them. */
  @Override
  public void close() {
    for (String ns : namespaces) {
      try {
        ip("netns", "del", ns);
      } catch (IOException e) {
        System.err.println("engine hosts: " + ns + " stays: " + e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        System.err.println("engine hosts: " + ns + " stays: interrupted");
      }
    }
  }

  private static void ip(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("ip"));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(Duration.ofSeconds(10).toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      throw new IOException(String.join(" ", command) + " did not finish");
    }
    if (process.exitValue() != 0) {
      throw new IOException(String.join(" ", command) + ": " + output.strip());
    }
  }
}
