package dev.clique.conformance;

import dev.clique.engine.tmux.PaneInfo;
import dev.clique.engine.tmux.TmuxException;
import dev.clique.engine.tmux.TmuxProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The processes of one clique session as a person would count them: the pane's process and its
 * descendants, and any process that carries the session's {@code CLIQUE_SESSION} marker in its
 * environment though it left that tree (a daemon a CLI forked away). Not the tmux server.
 */
final class SessionProcesses {
  private SessionProcesses() {}

  /** The session's processes now. */
  static List<ProcessHandle> of(TmuxProcess tmux, String id) throws TmuxException {
    Set<ProcessHandle> all = new LinkedHashSet<>();
    for (PaneInfo pane : tmux.listPanes()) {
      if (pane.session().equals(id)) {
        ProcessHandle.of(pane.pid())
            .ifPresent(
                root -> {
                  all.add(root);
                  root.descendants().forEach(all::add);
                });
      }
    }
    String marker = "CLIQUE_SESSION=" + id;
    ProcessHandle.allProcesses()
        .filter(p -> p.pid() != ProcessHandle.current().pid() && marked(p.pid(), marker))
        // tmux's server keeps the environment of the session it was started for, yet serves all
        .filter(p -> !p.info().command().map(c -> c.endsWith("/tmux")).orElse(false))
        .forEach(all::add);
    return new ArrayList<>(all);
  }

  /** Those of {@code processes} still alive after up to {@code patience}, described. */
  static List<String> survivors(List<ProcessHandle> processes, Duration patience)
      throws InterruptedException {
    long deadline = System.nanoTime() + patience.toNanos();
    while (processes.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    return processes.stream()
        .filter(ProcessHandle::isAlive)
        .map(SessionProcesses::describe)
        .toList();
  }

  /** Stops those of {@code processes} a test started that are still alive: SIGTERM, SIGKILL. */
  static void stop(Iterable<ProcessHandle> processes) throws InterruptedException {
    List<ProcessHandle> alive = new ArrayList<>();
    processes.forEach(
        p -> {
          if (p.isAlive()) {
            alive.add(p);
          }
        });
    alive.forEach(ProcessHandle::destroy);
    long deadline = System.nanoTime() + Duration.ofSeconds(3).toNanos();
    while (alive.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    alive.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
  }

  static String describe(ProcessHandle process) {
    return process.pid()
        + " (parent "
        + process.parent().map(p -> Long.toString(p.pid())).orElse("?")
        + ") "
        + process.info().commandLine().orElse("?");
  }

  private static boolean marked(long pid, String marker) {
    byte[] environ;
    try {
      environ = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ"));
    } catch (IOException | RuntimeException e) {
      return false; // gone, or not ours
    }
    for (String entry : new String(environ, StandardCharsets.UTF_8).split("\0")) {
      if (entry.equals(marker)) {
        return true;
      }
    }
    return false;
  }
}
