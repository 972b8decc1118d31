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
}
