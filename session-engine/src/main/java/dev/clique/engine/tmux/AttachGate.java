package dev.clique.engine.tmux;

import dev.clique.engine.home.FileLocks;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Keeps a control client's attach apart from the commands that notify control clients, on one tmux
 * server, across every engine of the machine.
 *
 * <p>tmux 3.3a marks a {@code -C} client as a control client as soon as it reads its flags, and
 * sets up what control clients are written to only once it has read the rest of the client's
 * greeting: a notification in between ({@code %sessions-changed} from a {@code new-session} or
 * {@code kill-session}, {@code %client-detached} from a control client that leaves) is written to
 * nothing, and the server dies of it, with every session on it. Under load the gap is wide enough
 * to hit. So an attach is exclusive, and those commands share: within the process by a read-write
 * lock, between processes (the engines on one home) by a lock on a file next to the socket.
 */
final class AttachGate {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(AttachGate.class);
  private static final Map<Path, AttachGate> GATES = new ConcurrentHashMap<>();
  // Held for an attach's greeting or one tmux command, each with its own time-out well below.
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  /** The work done under the gate, which may fail as tmux does. */
  interface Work<T> {
    T run() throws TmuxException;
  }

  private final Path file;
  private final ReentrantReadWriteLock local = new ReentrantReadWriteLock();
  private final Object shared = new Object();
  private int sharing; // guarded by shared
  private FileChannel channel; // guarded by shared; open while the file is locked
  private FileLock lock; // guarded by shared

  private AttachGate(Path file) {
    this.file = file;
  }

  /** The gate of the server listening on {@code socketFile}; null for none (no gate is kept). */
  static AttachGate of(Path socketFile) {
    if (socketFile == null) {
      return null;
    }
    Path lockFile = socketFile.resolveSibling(socketFile.getFileName() + ".clique-attach");
    return GATES.computeIfAbsent(lockFile, AttachGate::new);
  }

  /** Removes the lock file, once its server is gone for good. */
  void forget() throws IOException {
    Files.deleteIfExists(file);
  }

  /** Runs a command that notifies control clients: alongside others, never during an attach. */
  <T> T notifying(Work<T> work) throws TmuxException {
    local.readLock().lock();
    try {
      synchronized (shared) {
        if (sharing++ == 0) {
          lock = lockFile(true);
        }
      }
      try {
        return work.run();
      } finally {
        synchronized (shared) {
          if (--sharing == 0) {
            release();
          }
        }
      }
    } finally {
      local.readLock().unlock();
    }
  }

  /** Runs a control client's attach, with no notifying command running. */
  <T> T attaching(Work<T> work) throws TmuxException {
    local.writeLock().lock();
    try {
      synchronized (shared) {
        lock = lockFile(false);
      }
      try {
        return work.run();
      } finally {
        synchronized (shared) {
          release();
        }
      }
    } finally {
      local.writeLock().unlock();
    }
  }

  /**
   * Locks the file, made 0600 in a 0700 directory (as tmux makes its own) when missing. A file that
   * cannot be locked leaves this process's own lock as the only guard.
   */
  private FileLock lockFile(boolean isShared) {
    try {
      Path dir = file.getParent();
      if (!Files.isDirectory(dir)) {
        Files.createDirectories(
            dir,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      }
      channel =
          FileChannel.open(
              file,
              Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE),
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      return FileLocks.take(channel, isShared, file, PATIENCE);
    } catch (IOException | UnsupportedOperationException e) {
      closeChannel();
      log.warn(
          "cannot lock {}: attaches are kept apart from this engine's own commands only ({})",
          file,
          e.getMessage());
      return null;
    }
  }

  private void release() {
    try {
      if (lock != null) {
        lock.release();
      }
    } catch (IOException e) {
      // closing the channel lets go of it too
    }
    lock = null;
    closeChannel();
  }

  private void closeChannel() {
    try {
      if (channel != null) {
        channel.close();
      }
    } catch (IOException e) {
      // nothing held any more
    }
    channel = null;
  }
}
