package dev.clique.engine.session;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * A private folder of this process's own for hook files, made on first use: for an engine given no
 * home folder for them (tests, embedded uses). {@link Files#createTempDirectory} makes it 0700 and
 * new, so no other user can have placed it.
 */
final class OwnHookFolder implements Supplier<Path> {
  private Path folder;

  @Override
  public synchronized Path get() {
    if (folder == null) {
      try {
        folder = Files.createTempDirectory("clique-hooks-");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return folder;
  }
}
