package dev.clique.engine.home;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.TimeUnit;

/**
 * What tells that a file changed on disk without reading it: size, modification time and inode.
 * Another process (the {@code clique token} command, a second engine on the same home) writes these
 * files too.
 */
public record FileStamp(long size, long modifiedNanos, Object fileKey) {
  /** The stamp of a file that is not there (or cannot be looked at). */
  public static final FileStamp NONE = new FileStamp(-1, -1, null);

  public static FileStamp of(Path path) {
    try {
      BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
      return new FileStamp(
          attributes.size(),
          attributes.lastModifiedTime().to(TimeUnit.NANOSECONDS),
          attributes.fileKey());
    } catch (IOException e) {
      return NONE;
    }
  }

  // Written out: compared on every tick of an idle engine, where a record's generated equals
  // (a method-handle chain) costs many times a plain comparison.
  @Override
  public boolean equals(Object other) {
    return other instanceof FileStamp that
        && size == that.size
        && modifiedNanos == that.modifiedNanos
        && java.util.Objects.equals(fileKey, that.fileKey);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(size, modifiedNanos, fileKey);
  }
}
