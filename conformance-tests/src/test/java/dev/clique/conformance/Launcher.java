package dev.clique.conformance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** How the suites start clique: the built jar, or the launcher script a user runs. */
final class Launcher {
  private Launcher() {}

  static Path jar() {
    Path jar = Path.of(System.getProperty("clique.jar", "../cli/target/clique.jar"));
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          "the clique jar is missing at " + jar + ": run the suites through `mvn verify`");
    }
    return jar.toAbsolutePath().normalize();
  }

  static Path script() {
    return Path.of(System.getProperty("clique.launcher", "../bin/clique"))
        .toAbsolutePath()
        .normalize();
  }

  /** {@code java -jar clique.jar <args>} on the JDK running the tests. */
  static List<String> jarCommand(String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xlog:disable");
    command.add("-Xlog:all=warning:stderr");
    command.add("-jar");
    command.add(jar().toString());
    command.addAll(List.of(args));
    return command;
  }
}
