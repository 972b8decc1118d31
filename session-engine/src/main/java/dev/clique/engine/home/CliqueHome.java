package dev.clique.engine.home;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;

/**
 * The directory that holds clique's files: {@code $CLIQUE_HOME}, or {@code ~/.clique} (read by
 * {@code EngineSettings}).
 */
public final class CliqueHome {
  private static final Object ROOT = 0;
  private static final int WRITABLE_BY_OTHERS = 0022;
  private static final int STICKY = 01000;

  private final Path dir;

  public CliqueHome(Path dir) {
    this.dir = dir.toAbsolutePath().normalize();
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

  /** Which home this is, to the tmux sessions its engines start ({@link HomeId}). */
  public Path homeIdFile() {
    return dir.resolve(HomeId.FILE);
  }

  /** The user's list prices, laid over the bundled ones ({@code PriceTable}). */
  public Path pricesFile() {
    return dir.resolve("prices.toml");
  }

  /**
   * Where notifications go ({@code Notifier}): webhooks, whose URLs are often their secret, and
   * commands.
   */
  public Path notifyFile() {
    return dir.resolve("notify.toml");
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
   * not make for itself is refused, as sshd's StrictModes refuses one: another user's, or writable
   * by others (anyone could have planted a token there), and the same for each of clique's files in
   * it, none of which may be a symbolic link. A file that others could only read is made private.
   *
   * <p>A home that is a symbolic link, as dotfile managers lay homes out, is followed: what it
   * points to must be this user's own directory, and each directory above that this user's or
   * root's and writable by no one else (a sticky one such as /tmp excepted), or someone else could
   * swap the home for theirs.
   *
   * @throws HomeRefusedException naming the home, why, and what to do
   */
  public void ensureExists() throws IOException {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      Files.createDirectories(dir);
      // Private before it is checked: a umask of 002 would make it group-writable, and refused.
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    }
    check(true);
  }

  /**
   * Refuses what {@link #ensureExists} refuses and changes nothing: for a command that only reaches
   * into the home of a running engine. A home not made yet passes, since nothing in it is used.
   *
   * @throws HomeRefusedException naming the home, why, and what to do
   */
  public void requireTrusted() throws IOException {
    if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      check(false);
    }
  }

  private void check(boolean makePrivate) throws IOException {
    Object self = currentUid();
    Path own = dir;
    if (Files.isSymbolicLink(dir)) {
      own = linkTarget();
      Refusal refusal = notOwn(own, true, own.toString(), self);
      if (refusal != null) {
        throw refused(dir, "it links to " + own + ", which " + refusal.problem(), refusal.fix());
      }
      requireSafeAbove(own, self);
    } else {
      Refusal refusal = notOwn(dir, true, "it", self);
      if (refusal != null) {
        throw refused(dir, "it " + refusal.problem(), refusal.fix());
      }
    }
    if (makePrivate) {
      Files.setPosixFilePermissions(own, PosixFilePermissions.fromString("rwx------"));
    }
    for (Path file :
        List.of(
            stateFile(),
            tokensFile(),
            clisFile(),
            pricesFile(),
            notifyFile(),
            engineFile(),
            homeIdFile())) {
      for (Path each : List.of(file, file.resolveSibling(file.getFileName() + ".bak"))) {
        if (Files.exists(each, LinkOption.NOFOLLOW_LINKS) || Files.isSymbolicLink(each)) {
          Refusal refusal = notOwn(each, false, "it", self);
          if (refusal != null) {
            throw refused(each, "it " + refusal.problem(), refusal.fix());
          }
          if (makePrivate) {
            Files.setPosixFilePermissions(each, PosixFilePermissions.fromString("rw-------"));
          }
        }
      }
    }
  }

  /** Where the home's link leads, all links followed; refused unless that is a directory. */
  private Path linkTarget() throws IOException {
    Path named = dir.resolveSibling(Files.readSymbolicLink(dir)).normalize();
    Path target;
    try {
      target = dir.toRealPath();
    } catch (NoSuchFileException e) {
      throw refused(
          dir,
          "it links to " + named + ", which does not exist",
          "make that directory (mkdir -m 700 " + named + ") or point the link at your home");
    } catch (IOException e) {
      throw refused(
          dir,
          "it links to " + named + ", which cannot be followed (" + e.getMessage() + ")",
          "point the link at a directory of your own");
    }
    if (!Files.isDirectory(target)) {
      throw refused(
          dir,
          "it links to " + target + ", which is not a directory",
          "point the link at a directory of your own");
    }
    return target;
  }

  /**
   * Refuses a linked home whose target sits below a directory someone else could change: each one
   * up to the root must be this user's or root's, and writable by no one else. A sticky directory
   * (such as /tmp) is let through, as there no one can rename or remove what is not theirs.
   */
  private void requireSafeAbove(Path target, Object self) throws IOException {
    String fix = "point the link at a directory inside folders only you or root can change";
    for (Path above = target.getParent(); above != null; above = above.getParent()) {
      Object owner = Files.getAttribute(above, "unix:uid");
      if (self != null && !self.equals(owner) && !ROOT.equals(owner)) {
        throw refused(
            dir,
            "it links to "
                + target
                + ", and "
                + above
                + " above it belongs to user id "
                + owner
                + ", who could swap it for theirs",
            fix);
      }
      int mode = (Integer) Files.getAttribute(above, "unix:mode");
      if ((mode & WRITABLE_BY_OTHERS) != 0 && (mode & STICKY) == 0) {
        throw refused(
            dir,
            "it links to "
                + target
                + ", and "
                + above
                + " above it is writable by others, who could swap it for theirs",
            "chmod go-w " + above + ", or " + fix);
      }
    }
  }

  /** Why {@code path} is not this user's own and writable by it alone; null when it is. */
  private static Refusal notOwn(Path path, boolean directory, String called, Object self)
      throws IOException {
    if (Files.isSymbolicLink(path)) {
      return new Refusal("is a symbolic link", "replace " + called + " with a file of your own");
    }
    if (directory
        ? !Files.isDirectory(path)
        : !Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
      return directory
          ? new Refusal("is not a directory", "point CLIQUE_HOME at a directory")
          : new Refusal("is not a regular file", "remove " + called);
    }
    Object owner = Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    if (self != null && !self.equals(owner)) {
      return new Refusal("belongs to user id " + owner + ", not to you", "use a home of your own");
    }
    Set<PosixFilePermission> mode = Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS);
    if (mode.contains(PosixFilePermission.GROUP_WRITE)
        || mode.contains(PosixFilePermission.OTHERS_WRITE)) {
      return new Refusal(
          "is writable by others, who could have planted a token in it",
          "check what " + called + " holds, then chmod " + (directory ? "700 " : "600 ") + called);
    }
    return null;
  }

  /** Why a path is refused, and what to do about it. */
  private record Refusal(String problem, String fix) {}

  /** This process's user id: the owner of {@code /proc/self}; null off Linux. */
  private static Object currentUid() {
    try {
      return Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    } catch (IOException | UnsupportedOperationException e) {
      return null;
    }
  }

  private static HomeRefusedException refused(Path path, String problem, String fix) {
    return new HomeRefusedException(
        "refusing " + path + ": " + problem + "; " + fix + " and start again");
  }

  @Override
  public String toString() {
    return dir.toString();
  }
}
