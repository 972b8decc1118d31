package dev.clique.conformance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A picture of the real {@code ~/.clique} and the real tmux socket {@code clique}, taken before and
 * after a suite: the suite passes only if the two pictures are equal.
 */
record RealThings(Map<String, String> homeEntries, List<String> realSocketSessions) {
  static RealThings look() throws IOException, InterruptedException {
    Path home = Path.of(System.getProperty("user.home"), ".clique");
    Map<String, String> entries = new TreeMap<>();
    if (Files.isDirectory(home)) {
      try (Stream<Path> paths = Files.list(home)) {
        for (Path path : paths.toList()) {
          entries.put(
              path.getFileName().toString(),
              Files.size(path) + "@" + Files.getLastModifiedTime(path).toMillis());
        }
      }
    } else {
      entries.put("(absent)", "");
    }
    return new RealThings(entries, Tmux.sessions("clique"));
  }
}
