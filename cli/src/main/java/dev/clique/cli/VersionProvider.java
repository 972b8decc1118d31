package dev.clique.cli;

import picocli.CommandLine.IVersionProvider;

/** {@code clique --version}: the version and the commit it was built from. */
final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    return new String[] {BuildInfo.current().line()};
  }
}
