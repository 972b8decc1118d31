package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The launcher's class-data sharing: the archive is made in the background on first use and mapped
 * by later starts, it is mapped alone (a static archive on JDK 17 to 24, an AOT cache from 25 on:
 * the JDK's default archive is not mapped beside it), and whatever state an archive is in (missing,
 * stale, from another JDK, damaged) stdout carries the protocol and nothing else.
 */
class LauncherCdsIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path ARCHIVES = Launcher.jar().getParent().resolve("cds");

  /** The launcher runs the JDK running these tests: an AOT cache from 25 on, else an archive. */
  private static final boolean AOT = Runtime.version().feature() >= 25;

  /** What a start of {@code clique mcp} left: its memory map while it ran, and its stderr. */
  private record Started(String maps, String stderr) {}

  /** Starts {@code clique mcp} through the launcher, pings it, and checks every stdout line. */
  private static String pingThroughTheLauncher(Map<String, String> extra, Path workdir)
      throws Exception {
    return startThroughTheLauncher(extra, workdir).maps();
  }

  private static Started startThroughTheLauncher(Map<String, String> extra, Path workdir)
      throws Exception {
    Map<String, String> env = new java.util.HashMap<>(Map.of());
    for (String key : List.of("PATH", "HOME", "LANG", "JAVA_HOME", "TMPDIR")) {
      String value = System.getenv(key);
      if (value != null) {
        env.put(key, value);
      }
    }
    env.put("JAVA_HOME", System.getProperty("java.home"));
    env.put("CLIQUE_URL", "http://127.0.0.1:9");
    env.put("CLIQUE_TOKEN", "mxp_" + "e".repeat(43));
    env.putAll(extra);
    try (Spawned mcp = Spawned.start(List.of(Launcher.script().toString(), "mcp"), env, workdir)) {
      mcp.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
      JsonNode pong = JSON.readTree(mcp.nextLine(Duration.ofSeconds(30)));
      assertThat(pong.get("result")).isEqualTo(JSON.readTree("{}"));
      String maps = Files.readString(Path.of("/proc", Long.toString(mcp.pid()), "maps"));
      mcp.closeStdin();
      assertThat(mcp.waitFor(Duration.ofSeconds(10))).isZero();
      assertThat(mcp.stdout().strip()).isEqualTo(pong.toString());
      return new Started(maps, mcp.stderr());
    }
  }

  /** The archive a start maps, once the background training has made it (at most 60 s). */
  private static Path archiveInUse(Path workdir) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      String maps = pingThroughTheLauncher(Map.of(), workdir);
      for (String line : maps.split("\n")) {
        int at = line.indexOf(ARCHIVES.toString());
        if (at >= 0) {
          return Path.of(line.substring(at).strip());
        }
      }
      Thread.sleep(500);
    }
    throw new AssertionError("no start mapped an archive of " + ARCHIVES + " within 60 s");
  }

  @Test
  void theFirstRunTrainsAnArchiveInTheBackgroundAndLaterRunsMapIt() throws Exception {
    Path workdir = Files.createTempDirectory("clique-cds-it-");
    try {
      ThrowawayEngine.deleteTree(ARCHIVES);
      String first = pingThroughTheLauncher(Map.of(), workdir);
      assertThat(first).as("no archive yet").doesNotContain(ARCHIVES.toString());
      Path archive = archiveInUse(workdir);
      assertThat(archive).hasParent(ARCHIVES);
      try (Stream<Path> left = Files.list(workdir)) {
        assertThat(left.toList()).as("nothing is left in the working directory").isEmpty();
      }
    } finally {
      ThrowawayEngine.deleteTree(workdir);
    }
  }

  @Test
  void theArchiveHoldsTheAppsClassesAndIsMappedAlone() throws Exception {
    Path workdir = Files.createTempDirectory("clique-cds-it-");
    try {
      Path archive = archiveInUse(workdir);
      // Required: a start that cannot map it fails. class+load names where each class came from.
      String require = AOT ? "-XX:AOTMode=on" : "-Xshare:on";
      Started started =
          startThroughTheLauncher(
              Map.of("CLIQUE_JAVA_OPTS", require + " -Xlog:class+load=info:stderr"), workdir);
      // A dynamic archive (JDK 17 to 24) is layered on the JDK's default one,
      // lib/server/classes.jsa, which is then mapped too; a static archive or an AOT cache is
      // mapped alone.
      assertThat(mappedArchives(started.maps()))
          .as("the only class-data archive mapped")
          .containsExactly(archive);
      // The app's own classes come from it: from a dynamic archive they would come from the
      // "shared objects file (top)".
      List<String> appClasses =
          started
              .stderr()
              .lines()
              .filter(line -> line.contains("[class,load] dev.clique."))
              .toList();
      assertThat(appClasses).isNotEmpty();
      assertThat(appClasses)
          .filteredOn(line -> line.endsWith(" source: shared objects file"))
          .as("app classes read from the archive")
          .isNotEmpty();
      assertThat(appClasses).noneMatch(line -> line.contains("shared objects file (top)"));
    } finally {
      ThrowawayEngine.deleteTree(workdir);
    }
  }

  @Test
  void aDamagedArchiveIsNotUsedAndIsMadeAgain() throws Exception {
    Path workdir = Files.createTempDirectory("clique-cds-it-");
    try {
      Path archive = archiveInUse(workdir);
      // Truncated: mapping it would crash the JVM, which prints its crash banner on stdout.
      assertThat(archive.toFile().setWritable(true)).isTrue();
      try (FileChannel channel = FileChannel.open(archive, StandardOpenOption.WRITE)) {
        channel.truncate(100_000);
      }
      String maps = pingThroughTheLauncher(Map.of(), workdir);
      assertThat(maps).as("the damaged archive is not mapped").doesNotContain(archive.toString());
      assertThat(archiveInUse(workdir)).isEqualTo(archive);
      assertThat(Files.size(archive)).as("made again").isGreaterThan(100_000);
    } finally {
      ThrowawayEngine.deleteTree(workdir);
    }
  }

  @Test
  void stdoutCarriesOnlyTheProtocolWhateverArchiveIsGiven() throws Exception {
    Path workdir = Files.createTempDirectory("clique-cds-it-");
    try {
      String suffix = AOT ? ".aot" : ".jsa";
      String use = AOT ? "-XX:AOTCache=" : "-XX:SharedArchiveFile=";
      Path garbage = workdir.resolve("garbage" + suffix);
      Files.write(garbage, "not an archive at all".repeat(500).getBytes(StandardCharsets.UTF_8));
      Path foreign = Files.createTempFile("clique-foreign-", suffix);
      Files.delete(foreign);
      // An archive of another class path: stale for this jar.
      Files.copy(Launcher.jar(), workdir.resolve("other.jar"));
      Process dump =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-Xlog:disable",
                  (AOT ? "-XX:AOTCacheOutput=" : "-XX:ArchiveClassesAtExit=") + foreign,
                  "-cp",
                  workdir.resolve("other.jar").toString(),
                  "-version")
              .redirectErrorStream(true)
              .start();
      dump.getInputStream().readAllBytes();
      dump.waitFor();
      assertThat(foreign).as("a foreign archive to give").isNotEmptyFile();
      for (String options :
          List.of(use + workdir.resolve("missing" + suffix), use + garbage, use + foreign)) {
        Path scratch = Files.createTempDirectory("clique-cds-run-");
        try {
          pingThroughTheLauncher(Map.of("CLIQUE_JAVA_OPTS", options), scratch);
        } finally {
          ThrowawayEngine.deleteTree(scratch);
        }
      }
      Files.deleteIfExists(foreign);
    } finally {
      ThrowawayEngine.deleteTree(workdir);
    }
  }

  /**
   * {@code clique serve} keeps an archive of its own: its first start trains it in the background,
   * on a home and a tmux server of the training's own that are gone once it is done, and the next
   * start maps it alone.
   */
  @Test
  void serveTrainsAnArchiveOfItsOwnAndLeavesNothingBehind() throws Exception {
    Path scratch = Files.createTempDirectory("clique-cds-serve-");
    Path tmp = Files.createDirectory(scratch.resolve("tmp"));
    Path home = Files.createDirectory(scratch.resolve("home"));
    Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
    Map<String, String> env = new HashMap<>();
    for (String key : List.of("PATH", "HOME", "LANG")) {
      if (System.getenv(key) != null) {
        env.put(key, System.getenv(key));
      }
    }
    env.put("JAVA_HOME", System.getProperty("java.home"));
    env.put("TMPDIR", tmp.toString());
    env.put("CLIQUE_HOME", home.toString());
    env.put("TMUX_TMPDIR", scratch.toString());
    env.put("CLIQUE_TMUX_SOCKET", "cds-it");
    env.put("CLIQUE_DISCOVER", "off");
    try (Stream<Path> old = Files.list(ARCHIVES)) {
      for (Path file : old.filter(f -> f.getFileName().toString().contains("-serve.")).toList()) {
        Files.deleteIfExists(file);
      }
    } catch (java.nio.file.NoSuchFileException none) {
      // no archive yet at all
    }
    try {
      assertThat(mappedArchives(serveMaps(env, scratch)))
          .as("no archive of its own yet")
          .noneMatch(archive -> archive.startsWith(ARCHIVES));
      long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
      Path archive = null;
      while (archive == null && System.nanoTime() < deadline) {
        Thread.sleep(1_000);
        try (Stream<Path> files = Files.list(ARCHIVES)) {
          archive =
              files
                  .map(Path::toString)
                  .filter(name -> name.contains("-serve.") && name.endsWith(".size"))
                  .map(name -> Path.of(name.substring(0, name.length() - ".size".length())))
                  .findFirst()
                  .orElse(null);
        }
      }
      assertThat(archive).as("serve's archive, made within 180 s").isNotNull();
      assertThat(mappedArchives(serveMaps(env, scratch)))
          .as("the only class-data archive mapped")
          .containsExactly(archive);
      try (Stream<Path> left = Files.list(tmp)) {
        assertThat(left.toList()).as("nothing of the training is left").isEmpty();
      }
      try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
        assertThat(
                all.map(p -> p.info().commandLine().orElse(""))
                    .filter(line -> line.contains(tmp.toString())))
            .as("no process of the training is left")
            .isEmpty();
      }
    } finally {
      new ProcessBuilder("tmux", "-L", "cds-it", "kill-server")
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start()
          .waitFor();
      ThrowawayEngine.deleteTree(scratch);
    }
  }

  /** Starts {@code clique serve} through the launcher and gives its memory map once it listens. */
  private static String serveMaps(Map<String, String> env, Path workdir) throws Exception {
    try (Spawned serve =
        Spawned.start(
            List.of(Launcher.script().toString(), "serve", "--port", "0"), env, workdir)) {
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (!serve.stderr().contains("listening on")) {
        assertThat(serve.alive()).as(serve.stderr()).isTrue();
        assertThat(System.nanoTime()).as("listening within 60 s").isLessThan(deadline);
        Thread.sleep(100);
      }
      String maps = Files.readString(Path.of("/proc", Long.toString(serve.pid()), "maps"));
      serve.signal("TERM");
      serve.waitFor(Duration.ofSeconds(10));
      return maps;
    }
  }

  /** The class-data archives (static or AOT) a memory map holds. */
  private static List<Path> mappedArchives(String maps) {
    return maps.lines()
        .map(line -> line.strip().split("\\s+", 6))
        .filter(fields -> fields.length == 6)
        .map(fields -> fields[5])
        .filter(file -> file.endsWith(".jsa") || file.endsWith(".aot"))
        .distinct()
        .map(Path::of)
        .toList();
  }

  @Test
  void cdsCanBeTurnedOff() throws Exception {
    Path workdir = Files.createTempDirectory("clique-cds-it-");
    try {
      String maps = pingThroughTheLauncher(Map.of("CLIQUE_CDS", "0"), workdir);
      assertThat(maps).doesNotContain(ARCHIVES.toString());
    } finally {
      ThrowawayEngine.deleteTree(workdir);
    }
  }
}
