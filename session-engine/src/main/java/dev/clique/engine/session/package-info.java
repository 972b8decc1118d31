/** Session records, their tmux sessions, the live pane snapshot and waits. */
package dev.clique.engine.session;
