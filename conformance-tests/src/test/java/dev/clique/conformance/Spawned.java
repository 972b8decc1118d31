package dev.clique.conformance;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A process started by a suite: its stdout read line by line in the background, its stderr kept
 * whole, and nothing left running when it is closed.
 */
final class Spawned implements AutoCloseable {
  private static final String EOF = "\u0000EOF";

  private final Process process;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
  private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
  private final Thread outReader;
  private final Thread errReader;

  private Spawned(Process process) {
    this.process = process;
    this.outReader = pump(process.getInputStream(), stdout, true);
    this.errReader = pump(process.getErrorStream(), stderr, false);
  }

  static Spawned start(List<String> command, Map<String, String> env, Path cwd) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command).directory(cwd.toFile());
    builder.environment().clear();
    builder.environment().putAll(env);
    return new Spawned(builder.start());
  }

  /** Writes one line to stdin. */
  void send(String line) throws IOException {
    OutputStream in = process.getOutputStream();
    in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  void sendBytes(byte[] bytes) throws IOException {
    OutputStream in = process.getOutputStream();
    in.write(bytes);
    in.flush();
  }

  /** The next stdout line, or an error naming what was on stderr. */
  String nextLine(Duration timeout) throws InterruptedException {
    String line = lines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    if (line == null) {
      throw new AssertionError("no line on stdout within " + timeout + "; stderr: " + stderr());
    }
    if (line.equals(EOF)) {
      lines.add(EOF);
      throw new AssertionError("stdout closed; exit " + exitCodeOrNull() + "; stderr: " + stderr());
    }
    return line;
  }

  void closeStdin() throws IOException {
    process.getOutputStream().close();
  }

  /** Waits for the exit; -1 when it did not exit in time (it is then killed). */
  int waitFor(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      return -1;
    }
    outReader.join(2000);
    errReader.join(2000);
    return process.exitValue();
  }

  /** Sends SIGTERM, as a client stopping its MCP server does; does not wait. */
  void terminate() {
    process.destroy();
  }

  /** Sends a signal by name ({@code INT}, {@code TERM}), as a client stopping its server does. */
  void signal(String name) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start();
    if (kill.waitFor() != 0) {
      throw new AssertionError("kill -" + name + " " + process.pid() + " failed");
    }
  }

  long pid() {
    return process.pid();
  }

  boolean alive() {
    return process.isAlive();
  }

  String stdout() {
    synchronized (stdout) {
      return stdout.toString(StandardCharsets.UTF_8);
    }
  }

  String stderr() {
    synchronized (stderr) {
      return stderr.toString(StandardCharsets.UTF_8);
    }
  }

  /** SIGTERM, then SIGKILL if it lingers. */
  @Override
  public void close() {
    try {
      if (process.isAlive()) {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          process.waitFor(5, TimeUnit.SECONDS);
        }
      }
      outReader.join(2000);
      errReader.join(2000);
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private Integer exitCodeOrNull() {
    return process.isAlive() ? null : process.exitValue();
  }

  private Thread pump(InputStream stream, ByteArrayOutputStream copy, boolean splitLines) {
    Thread thread =
        new Thread(
            () -> {
              ByteArrayOutputStream line = new ByteArrayOutputStream();
              byte[] buffer = new byte[8192];
              try (stream) {
                int n;
                while ((n = stream.read(buffer)) > 0) {
                  synchronized (copy) {
                    copy.write(buffer, 0, n);
                  }
                  if (splitLines) {
                    for (int i = 0; i < n; i++) {
                      if (buffer[i] == '\n') {
                        lines.add(line.toString(StandardCharsets.UTF_8));
                        line.reset();
                      } else {
                        line.write(buffer[i]);
                      }
                    }
                  }
                }
              } catch (IOException e) {
                // the process went away
              } finally {
                if (splitLines) {
                  lines.add(EOF);
                }
              }
            },
            "spawned-" + (splitLines ? "out" : "err"));
    thread.setDaemon(true);
    thread.start();
    return thread;
  }
}
