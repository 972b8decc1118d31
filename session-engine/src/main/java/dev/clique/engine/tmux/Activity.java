package dev.clique.engine.tmux;

/**
 * What a tmux server has done, as a stamp ({@link Tmux#activity()}): two equal stamps mean the
 * server did nothing in between that could change what the engine knows.
 */
public record Activity(String stamp) {
  // Written out: compared on every tick of an idle engine, where a record's generated equals
  // (a method-handle chain) costs many times a plain comparison.
  @Override
  public boolean equals(Object other) {
    return other instanceof Activity that && stamp.equals(that.stamp);
  }

  @Override
  public int hashCode() {
    return stamp.hashCode();
  }
}
