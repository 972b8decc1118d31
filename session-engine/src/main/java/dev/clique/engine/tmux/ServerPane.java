package dev.clique.engine.tmux;

/**
 * One pane of a tmux server, as discovery sees it: where it is and what it shows.
 *
 * @param id the pane id ({@code %12}), unique on its server while the server runs
 * @param window the index of its window
 * @param currentPath the working directory tmux reports for the pane's foreground process
 * @param info the pane itself; its {@code session} is the tmux session it belongs to
 */
public record ServerPane(String id, int window, String currentPath, PaneInfo info) {}
