package dev.clique.cli;

import dev.clique.engine.Engine;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** {@code clique --version}: the version and the commit it was built from. */
final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    Properties build = new Properties();
    try (InputStream in = VersionProvider.class.getResourceAsStream("build.properties")) {
      if (in != null) {
        build.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String commit = build.getProperty("commit", "unknown");
    boolean modified = Boolean.parseBoolean(build.getProperty("modified", "false"));
    return new String[] {
      "clique " + Engine.version() + " (commit " + commit + (modified ? ", modified" : "") + ")"
    };
  }
}
