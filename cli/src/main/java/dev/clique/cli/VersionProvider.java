package dev.clique.cli;

import dev.clique.engine.Engine;
import picocli.CommandLine.IVersionProvider;

/** {@code clique --version}. */
final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    return new String[] {"clique " + Engine.version()};
  }
}
