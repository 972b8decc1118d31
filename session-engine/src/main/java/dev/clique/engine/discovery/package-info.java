/**
 * Discovery: the sessions people already run in their own tmux. The user's other tmux servers (the
 * sockets of their tmux socket directory, and those configured) are listed pane by pane; a pane
 * whose process tree runs a CLI of the catalogue (read from {@code /proc}: executables and argv) is
 * a discovered session, read-only until adopted. Sockets of other users and clique's own socket are
 * never touched.
 *
 * <p>{@link dev.clique.engine.discovery.Discovery} keeps the list; {@link
 * dev.clique.engine.discovery.DiscoverySettings} says what it looks at; {@link
 * dev.clique.engine.discovery.TranscriptMapping} finds a discovered CLI's transcript from its
 * process.
 */
package dev.clique.engine.discovery;
