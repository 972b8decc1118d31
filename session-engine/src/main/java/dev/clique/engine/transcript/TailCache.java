package dev.clique.engine.transcript;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The parsed tails of the transcript files read lately, keyed by file, and the count of every
 * transcript byte read. Holds at most {@link #MAX_FILES} files; the least recently asked is dropped
 * first.
 */
final class TailCache {

  static final int MAX_FILES = 32;

  private final AtomicLong bytesRead = new AtomicLong();
  private final HeadFields heads = new HeadFields(bytesRead);

  private final Map<Path, TailWindow> windows = RecentlyUsed.map(MAX_FILES);

  /**
   * The turns of {@code file} read by {@code reader}; [] when the file is not there or is not a
   * regular file. The CLIs write regular files: a symbolic link in a transcript's place is not
   * followed (it could lead to any file the engine may read), and a FIFO or device is never opened
   * (opening a FIFO would block until someone writes to it). The folders above may be links.
   *
   * @throws UnreadableTranscriptException when a prompt or an answer in the part read is of a kind
   *     the reader does not know
   */
  List<Turn> turns(TranscriptReader reader, Path file) throws IOException {
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      forget(file);
      return List.of();
    }
    if (!attributes.isRegularFile()) {
      forget(file);
      return List.of();
    }
    TailWindow window = window(reader, file);
    return file.getFileName().toString().endsWith(".json")
        ? window.documentTurns(file, attributes)
        : window.turns(file, attributes);
  }

  private synchronized TailWindow window(TranscriptReader reader, Path file) {
    TailWindow window = windows.get(file);
    if (window == null || window.reader() != reader) {
      window = new TailWindow(reader, bytesRead, heads);
      windows.put(file, window);
    }
    return window;
  }

  private synchronized void forget(Path file) {
    windows.remove(file);
  }

  /** The first lines of files read, remembered; shared with the locators that match files. */
  HeadFields heads() {
    return heads;
  }

  /** Every transcript byte read so far: tails and the heads read to match files. */
  AtomicLong bytesRead() {
    return bytesRead;
  }
}
