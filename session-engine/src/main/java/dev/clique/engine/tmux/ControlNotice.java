package dev.clique.engine.tmux;

/**
 * What a control-mode client heard outside a command's answer (tmux's {@code %} notifications), and
 * what became of the client itself, as the listeners of a {@link ControlGateway} are handed them.
 */
sealed interface ControlNotice {

  /** {@code %sessions-changed}: a session was made or closed. */
  record SessionsChanged() implements ControlNotice {}

  /** {@code %session-closed <id>}: a session of the server closed (the client's own, perhaps). */
  record SessionClosed(String session) implements ControlNotice {}

  /** {@code %exit [reason]}: tmux ends the client (its session closed, the server ended). */
  record Exit(String reason) implements ControlNotice {}

  /** Any other notification (a window, a buffer, a layout changed), as tmux wrote it. */
  record Other(String line) implements ControlNotice {}

  /** A client attached to the server: what happened before it is unknown. */
  record Attached() implements ControlNotice {}

  /** The client was found closed: what it would have heard meanwhile is unknown. */
  record Lost() implements ControlNotice {}

  /** The notification a line outside a block is; {@code line} begins with {@code %}. */
  static ControlNotice of(String line) {
    String[] words = line.split(" ", 2);
    String rest = words.length > 1 ? words[1] : "";
    return switch (words[0]) {
      case "%sessions-changed" -> new SessionsChanged();
      case "%session-closed" -> new SessionClosed(rest);
      case "%exit" -> new Exit(rest);
      default -> new Other(line);
    };
  }
}
