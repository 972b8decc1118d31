package dev.clique.bench;

import java.util.List;

/** One benchmark: it measures, and says what it measured as figures. */
interface Benchmark {
  /** A short name, used by {@code --only} and in progress lines. */
  String name();

  List<Figure> run(Settings settings) throws Exception;
}
