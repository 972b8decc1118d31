package dev.clique.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the figures were measured on. */
record Machine(int cores, String memory, String jdk, String os) {
  static Machine current() {
    return new Machine(
        Runtime.getRuntime().availableProcessors(),
        totalMemory(),
        System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
        System.getProperty("os.name") + " " + System.getProperty("os.arch"));
  }

  private static String totalMemory() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal:")) {
          long kib = Long.parseLong(line.replaceAll("\\D", ""));
          return String.format("%.1f GiB", kib / 1048576.0);
        }
      }
    } catch (IOException | NumberFormatException e) {
      // not Linux: say so below
    }
    return "unknown";
  }
}
