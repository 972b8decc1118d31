package dev.clique.engine.tmux;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One tmux control-mode client ({@code tmux -C}) kept attached to a server: the gateway every
 * command of the engine's goes through, so a command costs a line on a pipe instead of a process.
 * Commands are answered in the order they were sent; each waits for its own {@code %begin} ...
 * {@code %end} (or {@code %error}) block. A line outside a block is a notification, handed to the
 * listener on the reader thread as a {@link ControlNotice}.
 *
 * <p>A block ends at the first line {@code %end <time> <number> <flags>} naming its own number, and
 * a program in a pane could print such a line on its screen. So a command whose output a pane
 * controls (a captured screen) is {@linkplain #runVouched vouched for}: a second command that
 * prints a random word follows it, and its answer is handed out only once that word came back as
 * the very next block. A forged end, or a forged block, puts something else there: the client is
 * closed then, every command waiting on it fails, and the caller runs it as a process instead.
 */
final class ControlClient implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ControlClient.class);

  /** What one command answered: its lines, and whether tmux called it an error. */
  record Answer(boolean ok, String output) {}

  private final Process process;
  private final OutputStream in;
  private final Deque<Slot> pending = new ArrayDeque<>();
  private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

  /**
   * A command waiting for its block. A check ({@code word} set) vouches for the command before it
   * ({@code vouched}), whose answer is held until the check's block says the word.
   */
  private static final class Slot {
    final CompletableFuture<Answer> answer = new CompletableFuture<>();
    final String word;
    final Slot vouched;
    Answer held;

    Slot(String word, Slot vouched) {
      this.word = word;
      this.vouched = vouched;
    }
  }

  private final AtomicLong bytesSent = new AtomicLong();
  private final Consumer<ControlNotice> notifications;
  private final Thread reader;
  private volatile boolean open = true;
  private volatile boolean misled; // closed by a forged block, or a command left unanswered

  private ControlClient(Process process, Consumer<ControlNotice> notifications, String name) {
    this.process = process;
    this.in = process.getOutputStream();
    this.notifications = notifications;
    // The attach command itself is answered first.
    pending.add(new Slot(null, null));
    this.reader = new Thread(this::read, "tmux-control " + name);
    reader.setDaemon(true);
  }

  /**
   * Starts {@code command} (a {@code tmux ... -C attach-session ...}, {@linkplain #relayed
   * relayed}) and waits until tmux answered its attach; fails when tmux refused or did not answer
   * within {@code timeout}.
   */
  static ControlClient start(
      ProcessBuilder command, Consumer<ControlNotice> notifications, String name, Duration timeout)
      throws TmuxException {
    Process process;
    try {
      // tmux writes to stderr only why it could not attach (read then); nothing once attached.
      process = command.start();
    } catch (IOException e) {
      throw new TmuxException("tmux control client could not be started: " + e.getMessage(), e);
    }
    ControlClient client = new ControlClient(process, notifications, name);
    CompletableFuture<Answer> attached = client.pending.peek().answer;
    client.reader.start();
    Answer answer;
    try {
      answer = client.await(attached, timeout, "attach");
    } catch (TmuxException e) {
      client.close(); // a client that never attached is no gateway, and not left running
      String said = client.saidOnExit();
      throw said.isEmpty() ? e : new TmuxException("tmux control client: " + said, e);
    }
    if (!answer.ok()) {
      client.close();
      throw new TmuxException("tmux control client was refused: " + answer.output().strip());
    }
    return client;
  }

  /** What tmux wrote to stderr before its output ended (an attach it refused), once read. */
  private String saidOnExit() {
    try {
      reader.join(2_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return said;
  }

  private volatile String said = "";

  /** The first line tmux wrote to stderr, read once its output ended and it exited. */
  private void readWhatItSaid() {
    try {
      if (!process.waitFor(1, TimeUnit.SECONDS)) {
        return;
      }
      String text = new String(process.getErrorStream().readAllBytes(), UTF_8).strip();
      int end = text.indexOf('\n');
      said = end < 0 ? text : text.substring(0, end);
    } catch (IOException e) {
      // closed already: nothing to name
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The control client's command line {@code tmux}, with its output relayed to this process by a
   * {@code cat} that, once this process is gone, reads the rest to its end.
   *
   * <p>tmux tells a control client to exit only once everything it queued for the client's stdout
   * is written. When the engine dies (killed, crashed), the end of its stdin makes tmux end the
   * client, but whatever tmux still had to write (an answer in flight, a notification, more than a
   * full pipe while the engine was stalled) can never be written to a pipe nobody reads: the client
   * would stay attached for ever, and keep its server up after the last session closed. With the
   * relay there is always a reader: the first {@code cat} dies writing to the dead engine, the
   * second drains the client's output until tmux closes it, and the client exits within moments.
   * Commands still go to tmux straight from this process's pipe.
   */
  static ProcessBuilder relayed(List<String> tmux) {
    List<String> command =
        new ArrayList<>(List.of("/bin/sh", "-c", "\"$@\" | { cat; exec cat >/dev/null; }", "sh"));
    command.addAll(tmux);
    return new ProcessBuilder(command);
  }

  /**
   * Sends one command line (its words quoted with {@link #quote}) and waits for its answer.
   *
   * @throws TmuxException when the client has closed, or no answer came within {@code timeout}
   */
  Answer run(String commandLine, Duration timeout) throws TmuxException {
    Slot slot = new Slot(null, null);
    send(commandLine + "\n", List.of(slot));
    return await(slot.answer, timeout, commandLine.split(" ", 2)[0]);
  }

  /**
   * The same for a command whose output a pane controls: answered only once the check that follows
   * it came back (see the class comment).
   */
  Answer runVouched(String commandLine, Duration timeout) throws TmuxException {
    byte[] random = new byte[16];
    RANDOM.nextBytes(random);
    String word = "clique-" + java.util.HexFormat.of().formatHex(random);
    Slot command = new Slot(null, null);
    Slot check = new Slot(word, command);
    send(commandLine + "\ndisplay-message -p '" + word + "'\n", List.of(command, check));
    return await(command.answer, timeout, commandLine.split(" ", 2)[0]);
  }

  private void send(String lines, List<Slot> slots) throws TmuxException {
    byte[] bytes = lines.getBytes(UTF_8);
    synchronized (pending) {
      if (!open) {
        throw new TmuxException("tmux control client has closed");
      }
      pending.addAll(slots);
      try {
        in.write(bytes);
        in.flush();
        bytesSent.addAndGet(bytes.length);
      } catch (IOException e) {
        pending.removeAll(slots);
        close();
        throw new TmuxException("tmux control client stopped reading: " + e.getMessage(), e);
      }
    }
  }

  private Answer await(CompletableFuture<Answer> answer, Duration timeout, String what)
      throws TmuxException {
    try {
      return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      // A client that does not answer is no gateway: its place is taken by a new one. A pane's
      // output may have opened a block that never ends.
      misled = true;
      close();
      throw new TmuxException("tmux " + what + " did not answer within " + timeout);
    } catch (ExecutionException e) {
      throw new TmuxException("tmux control client has closed: " + e.getCause().getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TmuxException("interrupted while waiting for tmux", e);
    }
  }

  /**
   * Bytes written to tmux so far: tmux reads each command from this client's pipe itself, so they
   * count in the server's read total and are taken out of it to see what else it read.
   */
  long bytesSent() {
    return bytesSent.get();
  }

  /** Whether a command is sent and not yet answered. */
  boolean busy() {
    synchronized (pending) {
      return !pending.isEmpty();
    }
  }

  boolean open() {
    return open && process.isAlive();
  }

  /**
   * Whether it was closed because a pane's output forged a block or a command went unanswered
   * (which a block a pane opened and never ended causes), not because its server or session went.
   */
  boolean misled() {
    return misled;
  }

  private void read() {
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8))) {
      String line;
      String block = null; // "<time> <number>" of the block being read
      List<String> lines = new ArrayList<>();
      boolean ended = true;
      while ((line = out.readLine()) != null) {
        if (block != null) {
          boolean end = line.startsWith("%end ");
          if ((end || line.startsWith("%error ")) && block.equals(number(line))) {
            complete(new Answer(end, String.join("\n", lines)));
            block = null;
            lines.clear();
          } else {
            lines.add(line);
          }
        } else if (line.startsWith("%begin ")) {
          block = number(line);
        } else if (line.startsWith("%end ")
            || line.startsWith("%error ")
            || !line.startsWith("%")) {
          // Text outside a block, or a block's real end after it had ended: tmux writes neither,
          // so a pane's output ended a block early.
          log.warn("tmux control client: a pane's output forged the end of a block; reconnecting");
          misled = true;
          ended = false;
          break;
        } else {
          ControlNotice notice = ControlNotice.of(line);
          notifications.accept(notice);
          if (notice instanceof ControlNotice.Exit) {
            ended = false;
            break;
          }
        }
      }
      if (ended && open) {
        readWhatItSaid(); // its output ended before anyone closed it: tmux may have said why
      }
    } catch (IOException | RuntimeException e) {
      log.debug("tmux control client stopped: {}", e.getMessage());
    } finally {
      close();
    }
  }

  /** The time and number of a {@code %begin}, {@code %end} or {@code %error} line. */
  private static String number(String line) {
    String[] words = line.split(" ");
    return words.length >= 3 ? words[1] + " " + words[2] : "";
  }

  private void complete(Answer answer) {
    Slot head;
    synchronized (pending) {
      head = pending.poll();
      if (head != null
          && head.word == null
          && !pending.isEmpty()
          && pending.peek().vouched == head) {
        head.held = answer; // handed out once its check came back
        return;
      }
    }
    if (head == null) {
      return;
    }
    if (head.word != null) {
      if (!answer.ok() || !answer.output().equals(head.word)) {
        log.warn("tmux control client: a pane's output forged the end of a block; reconnecting");
        misled = true;
        close(); // before any later block is read: nothing after the forgery is believed
        return;
      }
      head.vouched.answer.complete(head.vouched.held);
    }
    head.answer.complete(answer);
  }

  /**
   * One word for tmux's command parser: single-quoted, a quote inside closed and escaped as the
   * shell does, and a control character (the field separator of a listing's format, a line break)
   * as an octal escape between double quotes, which tmux joins to the quoted text around it.
   */
  static String quote(String word) {
    StringBuilder quoted = new StringBuilder(word.length() + 2).append('\'');
    for (int i = 0; i < word.length(); i++) {
      char c = word.charAt(i);
      if (c == '\'') {
        quoted.append("'\\''");
      } else if (c < 0x20 || c == 0x7f) {
        quoted
            .append("'\"\\")
            .append((char) ('0' + (c >> 6)))
            .append((char) ('0' + ((c >> 3) & 7)))
            .append((char) ('0' + (c & 7)))
            .append("\"'");
      } else {
        quoted.append(c);
      }
    }
    return quoted.append('\'').toString();
  }

  /** The words as one command line for tmux's parser. */
  static String commandLine(List<String> words) {
    StringBuilder line = new StringBuilder();
    for (String word : words) {
      if (line.length() > 0) {
        line.append(' ');
      }
      line.append(word.equals(";") ? ";" : quote(word));
    }
    return line.toString();
  }

  @Override
  public void close() {
    List<Slot> failed;
    synchronized (pending) {
      open = false;
      failed = new ArrayList<>(pending);
      pending.clear();
    }
    for (Slot slot : failed) {
      slot.answer.completeExceptionally(new IOException("the control client closed"));
      if (slot.vouched != null) {
        slot.vouched.answer.completeExceptionally(new IOException("the control client closed"));
      }
    }
    try {
      in.close();
    } catch (IOException e) {
      // it is going anyway
    }
    // The tmux client and its relay are children of the shell that started them.
    List<ProcessHandle> relay = process.descendants().toList();
    process.destroy();
    relay.forEach(ProcessHandle::destroy);
  }
}
