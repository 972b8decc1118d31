/**
 * The tmux driver, behind {@link dev.clique.engine.tmux.Tmux}: argument lists only, clique's own
 * socket, exact targets, a time-out on every call. {@link dev.clique.engine.tmux.TmuxProcess} gives
 * the commands; they go through the server's control-mode gateway (a line on a pipe) or a process
 * of their own; the gateway's notifications keep the stamp of what the server did ({@link
 * dev.clique.engine.tmux.Activity}). And the pane processes as {@code /proc} shows them (who holds
 * the terminal, memory), read without starting a process.
 */
package dev.clique.engine.tmux;
