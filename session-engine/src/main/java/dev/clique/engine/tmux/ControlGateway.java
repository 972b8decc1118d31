package dev.clique.engine.tmux;

import static dev.clique.engine.tmux.ProcFs.parseLong;

import dev.clique.engine.tmux.TmuxRunner.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The way in to one tmux server: the {@link ControlClient} kept attached to it (clique's own
 * server; never a person's), which a command goes through as a line on a pipe, and the process that
 * runs it instead when no client is there. What the client hears, and what becomes of it, is handed
 * to the {@linkplain #listen listeners} as a {@link ControlNotice}.
 */
final class ControlGateway {
  private static final int MAX_DISTRUSTED = 256;

  private final TmuxRunner runner;
  private final String socket;
  private final boolean byFile;

  /** Whether a control client is kept on this server (clique's own; never a person's server). */
  private final boolean controlled;

  /** Between the control client's attach and the commands that notify it (clique's own server). */
  private final AttachGate gate;

  private final List<Consumer<ControlNotice>> listeners = new CopyOnWriteArrayList<>();
  private final Object lock = new Object();
  private volatile ControlClient control;
  private volatile long serverPid;
  private volatile String controlSession = "";
  private String refusedAt; // the socket's stamp when attaching last failed (or the pid was asked)
  private String refusal = ""; // why it failed, as tmux said it
  private volatile Path socketFile;

  /**
   * Panes whose capture through the control client failed, "" when a listing did: captured (or
   * listed) by processes only.
   */
  private final Set<String> distrusted = ConcurrentHashMap.newKeySet();

  /**
   * The server {@code runner} reaches on {@code socket}: a name in tmux's socket directory, or the
   * socket file itself when {@code byFile}. Only a {@code controlled} one gets a control client.
   */
  ControlGateway(TmuxRunner runner, String socket, boolean byFile, boolean controlled) {
    this.runner = runner;
    this.socket = socket;
    this.byFile = byFile;
    this.controlled = controlled;
    this.gate = controlled ? AttachGate.of(socketFileNow()) : null;
  }

  /** {@code listener} is handed every notice from now on, on the thread that came upon it. */
  void listen(Consumer<ControlNotice> listener) {
    listeners.add(listener);
  }

  private void tell(ControlNotice notice) {
    for (Consumer<ControlNotice> listener : listeners) {
      listener.accept(notice);
    }
  }

  boolean controlled() {
    return controlled;
  }

  /**
   * The control client, attached now if none is: to any session of the server, taking no part in
   * its size and hearing none of its output. Null when the server has no session to attach to
   * (tried again once the socket changes, or a session was made).
   */
  ControlClient client() {
    if (!controlled) {
      return null;
    }
    ControlClient client = control;
    if (client != null && client.open()) {
      return client;
    }
    synchronized (lock) {
      client = control;
      if (client != null && client.open()) {
        return client;
      }
      if (client != null) {
        control = null;
        tell(new ControlNotice.Lost());
      }
      String stamp = socketStamp();
      if (stamp == null || stamp.equals(refusedAt)) {
        return null;
      }
      ProcessBuilder builder =
          ControlClient.relayed(
              runner.command(List.of("-C", "attach-session", "-E", "-f", "ignore-size,no-output")));
      builder.environment().keySet().removeIf(TmuxRunner::notForPanes);
      try {
        client = attach(() -> ControlClient.start(builder, this::tell, socket, runner.timeout()));
        String[] where =
            client
                .run("display-message -p '#{pid} #{session_name}'", runner.timeout())
                .output()
                .split(" ", 2);
        serverPid = parseLong(where[0]);
        controlSession = where.length > 1 ? where[1].strip() : "";
        control = client;
        tell(new ControlNotice.Attached());
        return client;
      } catch (TmuxException e) {
        if (client != null) {
          client.close();
        }
        refusedAt = socketStamp(); // as the attempt left it: a server it started has gone
        refusal = oneLine(e.getMessage());
        return null;
      }
    }
  }

  /** The session the control client is attached to, "" when none is. */
  String attachedSession() {
    return control == null ? "" : controlSession;
  }

  /** The server's pid, as the control client (or, on a person's server, tmux) last said it. */
  long serverPid() {
    return serverPid;
  }

  /** A server runs now (a session was made on it): the control client may attach again. */
  void serverStarted() {
    synchronized (lock) {
      refusedAt = null;
    }
  }

  /**
   * Why the control client could not attach, when it last tried on the socket as {@code stamp} says
   * it is now; null when it has not tried since the socket changed.
   */
  String refusal(String stamp) {
    synchronized (lock) {
      return stamp.equals(refusedAt) ? refusal : null;
    }
  }

  /**
   * A person's server's pid, asked of tmux once for each socket {@code stamp} (the same socket
   * answered by a new server is asked again); 0 when no server answers.
   */
  long serverPidOnce(String stamp) {
    synchronized (lock) {
      if (!stamp.equals(refusedAt)) {
        long pid = 0;
        try {
          Result result = runner.run(List.of("display-message", "-p", "#{pid}"));
          pid = result.exitCode() == 0 ? parseLong(result.stdout()) : 0;
        } catch (TmuxException e) {
          // no server answers there
        }
        serverPid = pid;
        refusedAt = stamp;
      }
    }
    return serverPid;
  }

  /**
   * Whether tmux refused the client because no server (or no session) is there to join: it said so,
   * or the client ended without a word (the server it reached was exiting).
   */
  static boolean noServer(String refusal) {
    return TmuxRunner.noServer(refusal)
        || refusal.contains("no sessions")
        || refusal.startsWith("tmux control client has closed");
  }

  private static String oneLine(String message) {
    String text = message == null ? "" : message.strip();
    int end = text.indexOf('\n');
    return end < 0 ? text : text.substring(0, end).strip();
  }

  /**
   * A command whose output the engine chooses (never a pane's text): through the control client
   * when one is attached, else as a process of its own.
   */
  Result call(List<String> words) throws TmuxException {
    return callThrough(client(), words);
  }

  /** The same through {@code client} (null: as a process), which the caller attached first. */
  Result callThrough(ControlClient client, List<String> words) throws TmuxException {
    if (client != null) {
      try {
        return result(client.run(ControlClient.commandLine(words), runner.timeout()));
      } catch (TmuxException e) {
        // The client went (its session closed, the server ended): the same call as a process.
      }
    }
    List<String> args = new ArrayList<>(words.size());
    for (String word : words) {
      args.add(word.equals(";") ? word : TmuxRunner.escape(word));
    }
    return runner.run(args);
  }

  /**
   * A command that prints a pane's text: through the control client, vouched for (a pane could
   * print the line that ends a block), else as a process of its own.
   */
  Result capture(List<String> words) throws TmuxException {
    return vouched(words, words.get(words.indexOf("-t") + 1));
  }

  /**
   * A listing of panes: their titles are text a program chose, so it is vouched for as a capture
   * is; one that failed so (a forged block) lists by processes from then on.
   */
  Result listing(List<String> words) throws TmuxException {
    return vouched(words, "");
  }

  private Result vouched(List<String> words, String target) throws TmuxException {
    ControlClient client = distrusted.contains(target) ? null : client();
    if (client != null) {
      try {
        return result(client.runVouched(ControlClient.commandLine(words), runner.timeout()));
      } catch (TmuxException e) {
        // The client closed: the same call as a process. If a pane misled it (forged a block's
        // end, or left a command unanswered), that pane's text (or any listing) never again goes
        // through a client; if it went with its server or session, the next client is trusted.
        if (client.misled()) {
          if (distrusted.size() >= MAX_DISTRUSTED) {
            distrusted.clear();
          }
          distrusted.add(target);
        }
      }
    }
    return runner.run(words);
  }

  private static Result result(ControlClient.Answer answer) {
    return answer.ok()
        ? new Result(0, answer.output().isEmpty() ? "" : answer.output() + "\n", "")
        : new Result(1, "", answer.output());
  }

  /** Runs {@code work}, which makes tmux notify control clients, clear of any attach. */
  <T> T notifying(AttachGate.Work<T> work) throws TmuxException {
    return gate == null ? work.run() : gate.notifying(work);
  }

  /** Attaches a control client, with nothing that notifies control clients running meanwhile. */
  private <T> T attach(AttachGate.Work<T> work) throws TmuxException {
    return gate == null ? work.run() : gate.attaching(work);
  }

  /** Closes the control client, if one is attached (its server is being stopped). */
  void closeClient() {
    ControlClient client = control;
    if (client != null) {
      client.close();
    }
  }

  /** Removes the socket file tmux leaves behind when its server exits. */
  void removeSocketFile() {
    Path file = socketFile();
    try {
      if (file != null) {
        Files.deleteIfExists(file);
        if (gate != null) {
          gate.forget(); // no server is left to attach to
        }
      }
    } catch (IOException e) {
      // a socket file left behind does no harm
    }
  }

  /** The socket file's identity (its inode and time), or null when there is none. */
  String socketStamp() {
    Path file = socketFile();
    if (file == null) {
      return null;
    }
    try {
      BasicFileAttributes attributes =
          Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      return attributes.fileKey() + "@" + attributes.lastModifiedTime().toMillis();
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** Where tmux keeps this socket: see {@link TmuxProcess#socketFile()}. */
  Path socketFile() {
    Path file = socketFile;
    if (file == null) {
      file = socketFileNow();
      socketFile = file;
    }
    return file;
  }

  private Path socketFileNow() {
    if (byFile) {
      return Path.of(socket);
    }
    String uid = ProcFs.system().userId();
    if (uid == null) {
      return null;
    }
    String dir = System.getenv().getOrDefault("TMUX_TMPDIR", "/tmp");
    return Path.of(dir.isBlank() ? "/tmp" : dir, "tmux-" + uid, socket);
  }
}
