package dev.clique.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * What this build of clique is: its version and the commit it was built from. The one place that
 * reads them; the engine and the MCP server are handed the version by the command that starts them.
 */
record BuildInfo(String version, String commit, boolean modified) {
  private static final BuildInfo CURRENT = read();

  /** This build's, read once. */
  static BuildInfo current() {
    return CURRENT;
  }

  /** {@code clique 0.1.0 (commit 0123456789ab)}, as {@code clique --version} says it. */
  String line() {
    return "clique " + version + " (commit " + commit + (modified ? ", modified" : "") + ")";
  }

  private static BuildInfo read() {
    Properties build = new Properties();
    try (InputStream in = BuildInfo.class.getResourceAsStream("build.properties")) {
      if (in != null) {
        build.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new BuildInfo(
        build.getProperty("version", "unknown"),
        build.getProperty("commit", "unknown"),
        Boolean.parseBoolean(build.getProperty("modified", "false")));
  }
}
