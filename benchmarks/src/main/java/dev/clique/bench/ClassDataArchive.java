package dev.clique.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The class-data archives bin/clique keeps for {@code clique mcp} and {@code clique serve} in
 * cli/target/cds. The first start of either after a build trains its archive in the background, so
 * a benchmark that measured the next starts straight away would measure them without it.
 */
final class ClassDataArchive {
  private ClassDataArchive() {}

  /**
   * Starts {@code clique mcp} about once a second until the archive of the built jar is in place,
   * for at most {@code seconds}; returns whether it is.
   */
  static boolean await(Path launcher, Map<String, String> env, int seconds) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!present(launcher, "mcp")) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      try (McpProcess process = McpProcess.start(List.of(launcher.toString(), "mcp"), env)) {
        process.roundTrip(McpProcess.initialize(1));
      }
      Thread.sleep(1_000);
    }
    return true;
  }

  /**
   * Waits until the archive of {@code clique serve} is in place, for at most {@code seconds}; the
   * engine {@code start} runs (and stops) trains it if it is missing. Returns whether it is.
   */
  static boolean awaitServe(Path launcher, Callable<AutoCloseable> start, int seconds)
      throws Exception {
    if (!present(launcher, "serve")) {
      start.call().close();
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!present(launcher, "serve")) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(1_000);
    }
    return true;
  }

  /**
   * Whether the archive of {@code command} is whole. The launcher names it after the jar's
   * modification time (in seconds) and size and the command, and writes its {@code .size} file once
   * the archive was checked.
   */
  static boolean present(Path launcher, String command) throws IOException {
    Path target = launcher.toRealPath().getParent().getParent().resolve("cli").resolve("target");
    Path jar = target.resolve("clique.jar");
    Path dir = target.resolve("cds");
    if (!Files.isRegularFile(jar) || !Files.isDirectory(dir)) {
      return false;
    }
    String prefix =
        "clique-" + Files.getLastModifiedTime(jar).to(TimeUnit.SECONDS) + Files.size(jar) + "-";
    try (Stream<Path> files = Files.list(dir)) {
      return files.anyMatch(
          file -> {
            String name = file.getFileName().toString();
            return name.startsWith(prefix)
                && name.contains("-" + command + ".")
                && name.endsWith(".size")
                && Files.isRegularFile(dir.resolve(name.substring(0, name.length() - 5)));
          });
    }
  }
}
