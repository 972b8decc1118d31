package dev.clique.engine.home;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

/** The directory that holds clique's files: {@code $CLIQUE_HOME}, or {@code ~/.clique}. */
public final class CliqueHome {
  private final Path dir;

  public CliqueHome(Path dir) {
    this.dir = dir.toAbsolutePath().normalize();
  }

  /** Resolves the home from {@code CLIQUE_HOME}, falling back to {@code ~/.clique}. */
  public static CliqueHome fromEnvironment(Map<String, String> env) {
    String configured = env.get("CLIQUE_HOME");
    if (configured != null && !configured.isBlank()) {
      return new CliqueHome(Path.of(configured));
    }
    return new CliqueHome(Path.of(System.getProperty("user.home"), ".clique"));
  }

  public Path dir() {
    return dir;
  }

  public Path stateFile() {
    return dir.resolve("state.json");
  }

  public Path tokensFile() {
    return dir.resolve("tokens.json");
  }

  public Path clisFile() {
    return dir.resolve("clis.toml");
  }

  /** Creates the directory if needed and makes it private to its owner (0700). */
  public void ensureExists() throws IOException {
    Files.createDirectories(dir);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
  }

  @Override
  public String toString() {
    return dir.toString();
  }
}
