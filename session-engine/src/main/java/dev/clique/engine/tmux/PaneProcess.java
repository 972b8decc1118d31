package dev.clique.engine.tmux;

/**
 * A process under a pane's process, as {@code /proc} shows it.
 *
 * @param commandLine its arguments joined by spaces ({@code ""} once it has ended)
 * @param ageMillis how long it has run (-1 when unknown)
 */
public record PaneProcess(String commandLine, long ageMillis) {}
