package dev.clique.engine.home;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Which home this is, to the tmux sessions its engines start: a random id made once and kept in the
 * home's {@code home-id}, which each session carries as its mark ({@code HomeMark}).
 *
 * <p>An id kept in the home, not the home's path: a home reached through a symbolic link or under
 * another path (a bind mount, a container) is still the same home, and so is one moved or renamed
 * while its sessions run; a new home made where an old one was is a home of its own. A copy of a
 * home (cp -a) copies its records of sessions too, and is the same home to them. The id is no
 * secret: it says nothing but "this home".
 */
public final class HomeId {
  /** The file's name in the home. */
  public static final String FILE = "home-id";

  private static final Pattern ID = Pattern.compile("[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}");

  private HomeId() {}

  /**
   * The id in {@code file}, made and written first (0600, atomically, under the home's lock, so two
   * engines starting on one home agree) when there is none yet or it was damaged.
   */
  public static String readOrMake(Path file) throws IOException {
    Optional<String> id = read(file);
    if (id.isPresent()) {
      return id.get();
    }
    return HomeLock.around(
        file,
        () -> {
          Optional<String> written = read(file);
          if (written.isPresent()) {
            return written.get(); // another engine made it meanwhile
          }
          String made = UUID.randomUUID().toString();
          AtomicFile.write(file, (made + "\n").getBytes(US_ASCII));
          return made;
        });
  }

  private static Optional<String> read(Path file) {
    return AtomicFile.readWithFallback(file, HomeId::valid)
        .map(data -> new String(data, US_ASCII).strip());
  }

  private static boolean valid(byte[] data) {
    return ID.matcher(new String(data, US_ASCII).strip()).matches();
  }
}
