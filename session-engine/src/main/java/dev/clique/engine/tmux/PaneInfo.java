package dev.clique.engine.tmux;

/**
 * What one cheap {@code list-panes -a} call tells about a session's (first) pane.
 *
 * @param activity unix seconds of the last output in the window
 * @param pid the pid of the process the pane started
 */
public record PaneInfo(
    String session,
    String command,
    long activity,
    int cols,
    int rows,
    boolean attached,
    long pid,
    boolean dead) {}
