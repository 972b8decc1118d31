package dev.clique.engine.tmux;

/**
 * What a tmux server has done, as a stamp ({@link Tmux#activity()}): two equal stamps mean the
 * server did nothing in between that could change what the engine knows.
 */
public record Activity(String stamp) {}
