/**
 * The tmux driver: argument lists only, clique's own socket, exact targets, a time-out on every
 * call; and the pane processes as {@code /proc} shows them (who holds the terminal, memory), read
 * without starting a process.
 */
package dev.clique.engine.tmux;
