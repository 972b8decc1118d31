package dev.clique.engine.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A person's own tmux, for discovery to find: a throwaway {@code TMUX_TMPDIR} with the socket
 * directory tmux would make in it ({@code tmux-<uid>}, mode 0700), and servers on sockets there,
 * run as a person would run them ({@code tmux -S <socket> new -d ...}). Closing it kills those
 * servers only.
 */
public final class UserTmux implements AutoCloseable {
  private final Path tmpdir;
  private final Path socketDir;
  private final List<Path> servers = new ArrayList<>();

  public UserTmux(Path dir) throws IOException {
    this.tmpdir = Files.createDirectories(dir);
    this.socketDir = tmpdir.resolve("tmux-" + uid());
    Files.createDirectories(socketDir);
    Files.setPosixFilePermissions(socketDir, PosixFilePermissions.fromString("rwx------"));
  }

  /** What {@code TMUX_TMPDIR} is for these servers. */
  public Path tmpdir() {
    return tmpdir;
  }

  public Path socketDir() {
    return socketDir;
  }

  /** The socket file of server {@code name}. */
  public Path socket(String name) {
    return socketDir.resolve(name);
  }

  /** Runs {@code tmux -S <socket of server> ARGS}; fails when tmux does. */
  public String run(String server, String... args) throws IOException, InterruptedException {
    Path socket = socket(server);
    if (!servers.contains(socket)) {
      servers.add(socket);
    }
    List<String> command =
        new ArrayList<>(List.of("tmux", "-S", socket.toString(), "-f", "/dev/null"));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().remove("TMUX");
    builder.environment().remove("TMUX_PANE");
    Process process = builder.start();
    process.getOutputStream().close();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IOException("tmux " + String.join(" ", args) + " failed: " + err);
    }
    return out;
  }

  /** The stand-in {@code claude} (a program named like Claude Code), copied to {@code dir/bin}. */
  public static Path fakeClaude(Path dir) throws IOException {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path claude = bin.resolve("claude");
    try (InputStream in = UserTmux.class.getResourceAsStream("/fake-cli/bin/claude")) {
      Files.copy(in, claude);
    }
    Files.setPosixFilePermissions(claude, PosixFilePermissions.fromString("rwx------"));
    return claude;
  }

  /** This user's numeric id, as tmux names its socket directory. */
  public static String uid() throws IOException {
    return Files.getAttribute(Path.of("/proc/self/"), "unix:uid").toString();
  }

  @Override
  public void close() {
    for (Path socket : servers) {
      try {
        new ProcessBuilder("tmux", "-S", socket.toString(), "kill-server")
            .redirectErrorStream(true)
            .start()
            .waitFor(5, TimeUnit.SECONDS);
        Files.deleteIfExists(socket);
      } catch (IOException e) {
        // nothing ran there
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
