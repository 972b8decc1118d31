package dev.clique.engine.session;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The git branch of a folder and how many paths in it changed. A folder outside any work tree is
 * {@code ""} and 0 without starting git; inside one, one {@code git status} call answers both.
 *
 * @param branch the branch, {@code HEAD} when detached, {@code ""} outside a work tree
 * @param dirty changed, staged and untracked paths
 */
record GitStatus(String branch, int dirty) {
  static final GitStatus NONE = new GitStatus("", 0);

  static GitStatus of(Path cwd, Duration timeout) {
    if (!insideWorkTree(cwd)) {
      return NONE;
    }
    Process process;
    try {
      ProcessBuilder builder =
          new ProcessBuilder(
              List.of(
                  "git",
                  "--no-optional-locks",
                  "-C",
                  cwd.toString(),
                  "status",
                  "--porcelain=v1",
                  "--branch",
                  "-z",
                  "--untracked-files=normal"));
      builder.environment().put("GIT_OPTIONAL_LOCKS", "0");
      builder.redirectErrorStream(false);
      builder.redirectError(ProcessBuilder.Redirect.DISCARD);
      process = builder.start();
    } catch (IOException e) {
      return NONE; // no git on this machine
    }
    // A git that hangs (a network file system, a huge tree) is stopped; reading then ends.
    CompletableFuture.delayedExecutor(timeout.toMillis(), TimeUnit.MILLISECONDS)
        .execute(process::destroyForcibly);
    try {
      process.getOutputStream().close();
      byte[] out = process.getInputStream().readNBytes(4 << 20);
      process.getInputStream().close();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        return NONE;
      }
      return process.exitValue() == 0 ? parse(new String(out, StandardCharsets.UTF_8)) : NONE;
    } catch (IOException e) {
      process.destroyForcibly();
      return NONE;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      return NONE;
    }
  }

  /** Parses {@code git status --porcelain=v1 --branch -z}. */
  static GitStatus parse(String porcelain) {
    String[] entries = porcelain.split("\0");
    String branch = "";
    int dirty = 0;
    for (int i = 0; i < entries.length; i++) {
      String entry = entries[i];
      if (entry.isEmpty()) {
        continue;
      }
      if (entry.startsWith("## ")) {
        branch = branchOf(entry.substring(3));
        continue;
      }
      dirty++;
      if (entry.length() > 1 && (entry.charAt(0) == 'R' || entry.charAt(0) == 'C')) {
        i++; // a rename or copy is followed by the path it came from
      }
    }
    return new GitStatus(branch, dirty);
  }

  private static String branchOf(String header) {
    if (header.startsWith("No commits yet on ")) {
      return header.substring("No commits yet on ".length()).strip();
    }
    if (header.startsWith("HEAD (no branch)")) {
      return "HEAD";
    }
    int dots = header.indexOf("...");
    String name = dots >= 0 ? header.substring(0, dots) : header;
    int space = name.indexOf(' ');
    return (space >= 0 ? name.substring(0, space) : name).strip();
  }

  private static boolean insideWorkTree(Path cwd) {
    for (Path dir = cwd.toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.exists(dir.resolve(".git"))) {
        return true;
      }
    }
    return false;
  }
}
