package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A tmux server of a person's own, as {@code tmux new -s NAME} makes it, on the default socket of a
 * throwaway {@code TMUX_TMPDIR}: what discovery finds. Closing it stops that server and removes the
 * directory.
 */
final class PersonsTmux implements AutoCloseable {
  final Path tmpdir;
  final Path socket;

  private PersonsTmux(Path tmpdir, Path socket) {
    this.tmpdir = tmpdir;
    this.socket = socket;
  }

  /** Starts the server with one session {@code name} running {@code command}. */
  static PersonsTmux start(String name, String... command) throws Exception {
    Path tmpdir = Files.createTempDirectory("clique-it-tmux-");
    Path socketDir =
        Files.createDirectories(
            tmpdir.resolve("tmux-" + Files.getAttribute(Path.of("/proc/self/"), "unix:uid")));
    Files.setPosixFilePermissions(socketDir, PosixFilePermissions.fromString("rwx------"));
    PersonsTmux tmux = new PersonsTmux(tmpdir, socketDir.resolve("default"));
    List<String> args =
        new ArrayList<>(
            List.of(
                "tmux",
                "-S",
                tmux.socket.toString(),
                "-f",
                "/dev/null",
                "new-session",
                "-d",
                "-s",
                name));
    args.addAll(List.of(command));
    Process started = new ProcessBuilder(args).start();
    assertThat(started.waitFor(10, TimeUnit.SECONDS) && started.exitValue() == 0)
        .as("tmux new-session -s " + name)
        .isTrue();
    return tmux;
  }

  /** What an engine needs to find this server's shells: discovery on, in this directory. */
  Map<String, String> discoverShells() {
    return Map.of(
        "CLIQUE_DISCOVER", "on",
        "CLIQUE_DISCOVER_SHELLS", "on",
        "TMUX_TMPDIR", tmpdir.toString());
  }

  @Override
  public void close() throws IOException {
    try {
      new ProcessBuilder("tmux", "-S", socket.toString(), "kill-server")
          .start()
          .waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    ThrowawayEngine.deleteTree(tmpdir);
  }
}
