package dev.clique.engine.home;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Writes a file so that a reader (or a crash) never sees half of it: temp file, fsync, rename. The
 * previous version is kept as {@code <name>.bak}. Every file is 0600.
 */
public final class AtomicFile {
  private AtomicFile() {}

  public static void write(Path target, byte[] data) throws IOException {
    write(target, data, PosixFilePermissions.fromString("rw-------"), true);
  }

  /**
   * Writes a file that is not clique's own (a person's settings) as {@link #write} does, but with
   * {@code mode} (the mode it had) and without a {@code .bak} beside it.
   */
  public static void replace(Path target, byte[] data, Set<PosixFilePermission> mode)
      throws IOException {
    write(target, data, mode, false);
  }

  private static void write(Path target, byte[] data, Set<PosixFilePermission> mode, boolean backup)
      throws IOException {
    Path dir = target.toAbsolutePath().getParent();
    String name = target.getFileName().toString();
    Path temp =
        Files.createTempFile(
            dir,
            "." + name + "." + ProcessHandle.current().pid() + ".",
            ".tmp",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try {
      Files.setPosixFilePermissions(temp, mode); // not through the umask
      try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
        ByteBuffer buffer = ByteBuffer.wrap(data);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
        channel.force(true);
      }
      if (backup) {
        keepBackup(target, dir, name);
      }
      move(temp, target);
      syncDirectory(dir);
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /**
   * Reads the file, or its {@code .bak} when the main file is missing or fails {@code valid}.
   * Returns empty when neither is usable.
   */
  public static Optional<byte[]> readWithFallback(Path target, Validator valid) {
    for (Path candidate : new Path[] {target, backupOf(target)}) {
      try {
        byte[] data = Files.readAllBytes(candidate);
        if (valid.accepts(data)) {
          return Optional.of(data);
        }
      } catch (NoSuchFileException e) {
        // try the next one
      } catch (IOException e) {
        // unreadable: try the next one
      }
    }
    return Optional.empty();
  }

  /**
   * Deletes the temporary files a writer killed mid-write (kill -9, power loss) left next to {@code
   * target}. Each is named after its writer's pid: a file of a live writer (another engine on the
   * same home, writing now) is kept; one without a pid must be a minute old.
   */
  public static void sweepLeftovers(Path target) throws IOException {
    Path dir = target.toAbsolutePath().getParent();
    String prefix = "." + target.getFileName() + ".";
    long minuteAgo = System.currentTimeMillis() - 60_000;
    try (DirectoryStream<Path> temps =
        Files.newDirectoryStream(
            dir,
            p ->
                p.getFileName().toString().startsWith(prefix)
                    && p.getFileName().toString().endsWith(".tmp"))) {
      for (Path temp : temps) {
        String rest = temp.getFileName().toString().substring(prefix.length());
        if (rest.startsWith("bak.")) {
          rest = rest.substring(4);
        }
        OptionalLong pid = pidIn(rest);
        boolean leftover =
            pid.isPresent()
                ? ProcessHandle.of(pid.getAsLong())
                    .map(ProcessHandle::isAlive)
                    .orElse(false)
                    .equals(Boolean.FALSE)
                : Files.getLastModifiedTime(temp).toMillis() < minuteAgo;
        if (leftover) {
          Files.deleteIfExists(temp);
        }
      }
    }
  }

  /** The writer's pid of {@code <pid>.<random>.tmp}; empty for a name without one. */
  private static OptionalLong pidIn(String rest) {
    int dot = rest.indexOf('.');
    if (dot < 0 || dot == rest.lastIndexOf('.')) {
      return OptionalLong.empty();
    }
    try {
      return dot > 0
          ? OptionalLong.of(Long.parseLong(rest.substring(0, dot)))
          : OptionalLong.empty();
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  public static Path backupOf(Path target) {
    return target.resolveSibling(target.getFileName() + ".bak");
  }

  /** Tells whether the bytes read are a usable version of the file. */
  @FunctionalInterface
  public interface Validator {
    boolean accepts(byte[] data);
  }

  // A hard link keeps the previous version without a moment where the main file is missing.
  private static void keepBackup(Path target, Path dir, String name) throws IOException {
    if (!Files.exists(target)) {
      return;
    }
    Path link = dir.resolve("." + name + ".bak." + ProcessHandle.current().pid() + ".tmp");
    Files.deleteIfExists(link);
    try {
      Files.createLink(link, target);
    } catch (UnsupportedOperationException | FileAlreadyExistsException e) {
      Files.copy(target, link, StandardCopyOption.REPLACE_EXISTING);
    }
    move(link, backupOf(target));
  }

  private static void move(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static void syncDirectory(Path dir) {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      // Some file systems cannot open a directory; the rename is still atomic there.
    }
  }
}
