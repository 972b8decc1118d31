package dev.clique.engine.transcript;

import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/** The spellings of one working directory: as given (absolute, normalized) and its real path. */
final class SameDirectory {

  private final Set<String> spellings = new LinkedHashSet<>();

  SameDirectory(Path cwd) {
    Path absolute = cwd.toAbsolutePath().normalize();
    spellings.add(absolute.toString());
    try {
      spellings.add(absolute.toRealPath().toString());
    } catch (IOException | SecurityException e) {
      // Gone or unreadable: the path as given is all we have.
    }
  }

  /** The spellings, the given one first. */
  Set<String> spellings() {
    return spellings;
  }

  /** Whether a path written by a CLI names this directory. */
  boolean matches(String written) {
    if (written == null || written.isEmpty()) {
      return false;
    }
    if (spellings.contains(written)) {
      return true;
    }
    try {
      return spellings.contains(Path.of(written).toAbsolutePath().normalize().toString());
    } catch (InvalidPathException e) {
      return false;
    }
  }
}
