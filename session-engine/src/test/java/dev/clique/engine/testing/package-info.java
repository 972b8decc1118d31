/**
 * Shared test fixtures: a fake tmux and a hand-moved clock for unit tests, and throwaway tmux
 * servers and engines (own socket, own home) for the integration tests.
 */
package dev.clique.engine.testing;
