package dev.clique.engine.notify;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a command for a notice: each word of {@code run} with {@code {title}}, {@code {message}},
 * {@code {event}}, {@code {id}} and {@code {name}} put in (as arguments, never through a shell),
 * the notice's JSON on its stdin. It has its time limit, after which it and what it started are
 * killed; what it printed is said when it fails.
 */
final class CommandSender implements Sender {
  /** The most of a failed command's output a log line carries. */
  static final int OUTPUT_MAX = 400;

  private final Target.Command target;
  private final String engine;

  CommandSender(Target.Command target, String engine) {
    this.target = target;
    this.engine = engine;
  }

  @Override
  public Outcome send(Notice notice) throws InterruptedException {
    List<String> argv = new ArrayList<>();
    String title = Format.Messages.title(notice);
    String message = Format.Messages.body(notice);
    for (String word : target.run()) {
      argv.add(
          word.replace("{title}", title)
              .replace("{message}", message)
              .replace("{event}", notice.event().wireName())
              .replace("{id}", notice.first().id())
              .replace("{name}", Format.Messages.line(notice.first().name())));
    }
    Path output = null;
    Process process = null;
    try {
      output =
          Files.createTempFile(
              "clique-notify",
              ".out",
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      process =
          new ProcessBuilder(argv)
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
      try (OutputStream stdin = process.getOutputStream()) {
        stdin.write(
            (Format.Messages.json(notice, engine).toString() + "\n")
                .getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        // It did not read its stdin: its business.
      }
      if (!process.waitFor(target.limit().toMillis(), TimeUnit.MILLISECONDS)) {
        kill(process);
        return Outcome.failed(
            "was stopped after " + target.limit().toMillis() / 1000.0 + " s" + said(output));
      }
      int status = process.exitValue();
      return status == 0
          ? Outcome.delivered("exited with status 0")
          : Outcome.failed("exited with status " + status + said(output));
    } catch (IOException e) {
      return Outcome.failed("could not be started: " + e.getMessage());
    } finally {
      if (process != null && process.isAlive()) {
        kill(process); // interrupted: nothing of it outlives the engine's notice
      }
      if (output != null) {
        try {
          Files.deleteIfExists(output);
        } catch (IOException e) {
          // a temporary file left behind: the system's cleaning takes it
        }
      }
    }
  }

  private static void kill(Process process) {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }

  /** What the command printed, on one line and bounded, or nothing when it printed nothing. */
  private static String said(Path output) {
    byte[] head = new byte[OUTPUT_MAX * 4];
    int read = 0;
    try (InputStream in = Files.newInputStream(output)) {
      read = in.readNBytes(head, 0, head.length);
    } catch (IOException e) {
      return "";
    }
    String text = Format.Messages.line(new String(head, 0, read, StandardCharsets.UTF_8)).strip();
    return text.isEmpty() ? "" : ": " + Format.Messages.clip(text, OUTPUT_MAX);
  }
}
