package dev.clique.engine.home;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Takes a lock on a file that other processes lock too, without ever blocking in the kernel.
 *
 * <p>A POSIX lock belongs to the whole process, and the kernel checks each blocking request for a
 * cycle of processes waiting on each other. With several threads that check sees cycles that are
 * none: one engine's thread holds the tokens file while another of its threads waits for a tmux
 * server's attach lock, which a second engine holds while it waits for the tokens file. The kernel
 * refuses that wait with EDEADLK ("Resource deadlock avoided") though each lock is let go in a
 * moment. A request that does not block is never refused so, so the lock is tried again, at first
 * often and then every 10 ms: a cost only while another process holds it.
 */
public final class FileLocks {
  private static final long LONGEST_PAUSE_MILLIS = 10;

  private FileLocks() {}

  /**
   * The lock of {@code channel}'s whole file, shared or exclusive, once no other process holds it
   * against this request.
   *
   * @param file the file, to name it in an error
   * @param limit how long another process may hold it before this gives up
   * @throws IOException when another process held it for longer than {@code limit}, or the file
   *     cannot be locked at all
   */
  public static FileLock take(FileChannel channel, boolean shared, Path file, Duration limit)
      throws IOException {
    long deadline = System.nanoTime() + limit.toNanos();
    long pause = 1;
    while (true) {
      FileLock lock = channel.tryLock(0, Long.MAX_VALUE, shared);
      if (lock != null) {
        return lock;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IOException(
            file
                + " stayed locked by another process for more than "
                + limit.toSeconds()
                + " s: another clique process on this home is stuck while it holds it");
      }
      try {
        Thread.sleep(pause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while waiting for the lock of " + file);
      }
      pause = Math.min(pause * 2, LONGEST_PAUSE_MILLIS);
    }
  }
}
