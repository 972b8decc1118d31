/**
 * The tmux driver: argument lists only, clique's own socket, exact targets, a time-out on every
 * call.
 */
package dev.clique.engine.tmux;
