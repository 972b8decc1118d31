package dev.clique.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The class-data archive bin/clique keeps for {@code clique mcp} in cli/target/cds. The first
 * {@code clique mcp} after a build trains it in the background, so a benchmark that timed the next
 * starts straight away would time starts without it.
 */
final class ClassDataArchive {
  private ClassDataArchive() {}

  /**
   * Starts {@code clique mcp} about once a second until the archive of the built jar is in place,
   * for at most {@code seconds}; returns whether it is.
   */
  static boolean await(Path launcher, Map<String, String> env, int seconds) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!present(launcher)) {
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
   * Whether the archive is whole. The launcher names it after the jar's modification time (in
   * seconds) and size, and writes its {@code .size} file once the archive was checked.
   */
  static boolean present(Path launcher) throws IOException {
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
                && name.endsWith(".size")
                && Files.isRegularFile(dir.resolve(name.substring(0, name.length() - 5)));
          });
    }
  }
}
