package dev.clique.engine.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Another process that holds a POSIX lock on a file (what Java's file locks are), as another engine
 * does: a Python process, since a second lock from this JVM would be this process's own.
 */
public final class LockHolder {
  private LockHolder() {}

  /**
   * Starts a process that locks the whole of {@code file}, shared or not, for {@code seconds}, and
   * returns once it holds the lock.
   */
  public static Process hold(Path file, boolean shared, double seconds) throws IOException {
    Process holder =
        new ProcessBuilder(
                "python3",
                "-c",
                "import fcntl, sys, time\n"
                    + "f = open(sys.argv[1], 'r+')\n"
                    + "fcntl.lockf(f, fcntl.LOCK_SH if sys.argv[2] == 'shared' else fcntl.LOCK_EX)\n"
                    + "print('held', flush=True)\n"
                    + "time.sleep(float(sys.argv[3]))\n",
                file.toString(),
                shared ? "shared" : "exclusive",
                Double.toString(seconds))
            .redirectErrorStream(true)
            .start();
    String said = new String(holder.getInputStream().readNBytes(5), StandardCharsets.UTF_8);
    if (!said.equals("held\n")) {
      holder.destroyForcibly();
      throw new IOException("the lock holder did not get the lock of " + file + ": " + said);
    }
    return holder;
  }
}
