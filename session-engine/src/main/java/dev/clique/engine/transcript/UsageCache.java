package dev.clique.engine.transcript;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The running usage of the transcript files read lately, keyed by file. Holds at most its capacity
 * of files ({@link #MAX_FILES} sessions' files, or {@link #MAX_SUBAGENT_FILES} sub-agents'); the
 * least recently asked is dropped first (and tallied afresh if asked again).
 */
final class UsageCache {

  static final int MAX_FILES = 64;

  /** Sub-agents' files: several a session, each small, and each asked with its session's. */
  static final int MAX_SUBAGENT_FILES = 512;

  private final AtomicLong bytesRead;

  private final Map<Path, UsageFile> files;

  UsageCache(AtomicLong bytesRead, int capacity) {
    this.bytesRead = bytesRead;
    this.files = RecentlyUsed.map(capacity);
  }

  /**
   * The usage {@code file} records, read by {@code reader}; nothing when it is not there or not a
   * regular file (a link in a transcript's place is not followed, a FIFO never opened: as for
   * turns).
   */
  UsageReport report(UsageReader reader, Path file) throws IOException {
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      forget(file);
      return UsageReport.NONE;
    }
    if (!attributes.isRegularFile()) {
      forget(file);
      return UsageReport.NONE;
    }
    UsageFile usage = usageFile(reader, file);
    return file.getFileName().toString().endsWith(".json")
        ? usage.documentReport(file, attributes)
        : usage.report(file, attributes);
  }

  private synchronized UsageFile usageFile(UsageReader reader, Path file) {
    UsageFile usage = files.get(file);
    if (usage == null || usage.reader() != reader) {
      usage = new UsageFile(reader, bytesRead);
      files.put(file, usage);
    }
    return usage;
  }

  private synchronized void forget(Path file) {
    files.remove(file);
  }
}
