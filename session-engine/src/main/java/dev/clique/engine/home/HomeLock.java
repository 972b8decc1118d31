package dev.clique.engine.home;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Set;

/**
 * Read-modify-write of a file under {@code CLIQUE_HOME} that other processes write too (two engines
 * on one home, {@code clique token} beside an engine): each change holds an exclusive lock on
 * {@code .<name>.lock} from reading the freshest copy to renaming the new one into place, so none
 * is lost.
 */
public final class HomeLock {
  // A file lock is held by the whole process: its threads (two stores in a test) queue here first.
  private static final Object PROCESS = new Object();
  // Another process holds it for a read and a rename: far longer means it is stuck.
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  private HomeLock() {}

  /** What runs under the lock. */
  @FunctionalInterface
  public interface Body<T> {
    T run() throws IOException;
  }

  /** Runs {@code body} holding the lock of {@code file}. */
  public static <T> T around(Path file, Body<T> body) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path lockFile = dir.resolve("." + file.getFileName() + ".lock");
    synchronized (PROCESS) {
      try (FileChannel channel = open(lockFile)) {
        java.nio.channels.FileLock lock = FileLocks.take(channel, false, lockFile, PATIENCE);
        try {
          return body.run();
        } finally {
          lock.release();
        }
      }
    }
  }

  private static FileChannel open(Path lockFile) throws IOException {
    try {
      return FileChannel.open(
          lockFile,
          Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (FileAlreadyExistsException e) {
      return FileChannel.open(lockFile, StandardOpenOption.WRITE);
    }
  }
}
