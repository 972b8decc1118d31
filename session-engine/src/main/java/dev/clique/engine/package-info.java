/**
 * The session engine: sessions in tmux, their state, transcripts and tokens, behind an HTTP API.
 */
package dev.clique.engine;
