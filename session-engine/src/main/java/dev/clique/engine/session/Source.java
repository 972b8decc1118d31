package dev.clique.engine.session;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a session clique did not start runs: one pane of another tmux server ({@code socket},
 * {@code session}, {@code window}, {@code pane}), or a terminal outside tmux ({@code tty}, {@code
 * pid}, {@code terminal}), each written with its own keys only.
 *
 * @param socket the path of the server's socket file
 * @param session the tmux session's name
 * @param window the index of the pane's window
 * @param pane the pane id ({@code %12}), which the engine's calls target
 * @param tty outside tmux: the terminal device ({@code /dev/pts/3}), null for a process with none
 * @param pid outside tmux: the CLI's process
 * @param terminal outside tmux: the terminal's program ({@code VS Code}), null when unknown
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Source(
    String socket, String session, int window, String pane, String tty, Long pid, String terminal) {

  /** A pane of another tmux server. */
  @JsonCreator
  public Source(
      @JsonProperty("socket") String socket,
      @JsonProperty("session") String session,
      @JsonProperty("window") int window,
      @JsonProperty("pane") String pane) {
    this(socket, session, window, pane, null, null, null);
  }

  /** A CLI that runs outside tmux. */
  public static Source outsideTmux(String tty, long pid, String terminal) {
    return new Source(null, null, 0, null, tty, pid, terminal);
  }

  /** Whether the session runs outside tmux: it has no pane, and is read-only for good. */
  public boolean outside() {
    return pid != null;
  }

  /** Where it runs, in words: {@code /dev/pts/3 (VS Code, pid 1234)} or the tmux pane. */
  public String where() {
    if (outside()) {
      return (tty == null ? "no terminal" : tty)
          + " ("
          + (terminal == null ? "" : terminal + ", ")
          + "pid "
          + pid
          + ")";
    }
    return "tmux session " + session + " on " + socket;
  }

  @JsonValue
  Map<String, Object> json() {
    Map<String, Object> json = new LinkedHashMap<>();
    if (outside()) {
      json.put("tty", tty);
      json.put("pid", pid);
      if (terminal != null) {
        json.put("terminal", terminal);
      }
    } else {
      json.put("socket", socket);
      json.put("session", session);
      json.put("window", window);
      json.put("pane", pane);
    }
    return json;
  }
}
