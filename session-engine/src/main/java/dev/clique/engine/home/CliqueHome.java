package dev.clique.engine.home;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;

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

  /**
   * Where the home's one engine listens ({@code engine.json}), written by the process that holds
   * {@link #engineLock()}: no secret, only a URL, a pid and a certificate's fingerprint.
   */
  public Path engineFile() {
    return dir.resolve("engine.json");
  }

  /**
   * The lock held for as long as a process runs the home's one engine: the kernel lets go of it
   * when that process ends, however it ends.
   */
  public Path engineLock() {
    return dir.resolve(".engine.lock");
  }

  /** The socket over which the user who owns the home reaches the engine as its operator. */
  public Path operatorSocket() {
    return dir.resolve("engine.sock");
  }

  /**
   * Creates the directory if needed and makes it private to its owner (0700). A home this user did
   * not make for itself is refused, as sshd's StrictModes refuses one: a symbolic link, another
   * user's, or writable by others (anyone could have planted a token there), and the same for each
   * of clique's files in it. A file that others could only read is made private.
   */
  public void ensureExists() throws IOException {
    if (Files.isSymbolicLink(dir)) {
      throw refused(dir, "is a symbolic link", "make it a directory of its own");
    }
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      Files.createDirectories(dir);
    } else {
      requireOwn(dir, true);
    }
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    for (Path file : List.of(stateFile(), tokensFile(), clisFile(), engineFile())) {
      for (Path each : List.of(file, file.resolveSibling(file.getFileName() + ".bak"))) {
        if (Files.exists(each, LinkOption.NOFOLLOW_LINKS) || Files.isSymbolicLink(each)) {
          requireOwn(each, false);
          Files.setPosixFilePermissions(each, PosixFilePermissions.fromString("rw-------"));
        }
      }
    }
  }

  private static void requireOwn(Path path, boolean directory) throws IOException {
    if (Files.isSymbolicLink(path)) {
      throw refused(path, "is a symbolic link", "replace it with a file of your own");
    }
    if (directory
        ? !Files.isDirectory(path)
        : !Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
      throw refused(path, directory ? "is not a directory" : "is not a regular file", "remove it");
    }
    Object owner = Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    Object self = currentUid();
    if (self != null && !self.equals(owner)) {
      throw refused(path, "belongs to user id " + owner + ", not to you", "use a home of your own");
    }
    Set<PosixFilePermission> mode = Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS);
    if (mode.contains(PosixFilePermission.GROUP_WRITE)
        || mode.contains(PosixFilePermission.OTHERS_WRITE)) {
      throw refused(
          path,
          "is writable by others, who could have planted a token in it",
          "check what it holds, then chmod " + (directory ? "700" : "600") + " it");
    }
  }

  /** This process's user id: the owner of {@code /proc/self}; null off Linux. */
  private static Object currentUid() {
    try {
      return Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    } catch (IOException | UnsupportedOperationException e) {
      return null;
    }
  }

  private static IOException refused(Path path, String problem, String fix) {
    return new IOException(
        "refusing " + path + ": it " + problem + "; " + fix + " and start again");
  }

  @Override
  public String toString() {
    return dir.toString();
  }
}
