package dev.clique.bench;

import java.nio.file.Path;

/**
 * How hard to measure. The quick setting (a smoke test's) only proves the runner works; its figures
 * mean nothing.
 *
 * @param launcher {@code bin/clique}
 * @param echoClassPath the class path of {@link Echo}, the trivial JVM program beside clique
 */
record Settings(boolean quick, Path launcher, String echoClassPath) {
  /** {@code full} in a real run, {@code quick} in the smoke test. */
  int scale(int full, int quick) {
    return this.quick ? quick : full;
  }
}
