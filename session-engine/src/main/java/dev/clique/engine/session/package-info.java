/**
 * Session records, their tmux sessions, the live pane snapshot and waits. {@link
 * dev.clique.engine.session.SessionService} is the door; the parts it hands each request to
 * (launch, processes, adoption, views, pane reads) are package-private.
 */
package dev.clique.engine.session;
