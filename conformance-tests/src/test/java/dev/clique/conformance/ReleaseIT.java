package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The release {@code bin/release} builds: unpacked anywhere (a folder with spaces, reached through
 * a symlink) it runs {@code clique mcp --embedded} with no JDK, no javac and no Maven on the PATH,
 * maps the class-data archive made when it was built, and says a warning, not a crash, when that
 * archive is gone or damaged. Its MCP bundle and registry entry are checked with their own tools.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
class ReleaseIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> TOOLS =
      List.of("list_sessions", "get_session", "wait", "preview_pane", "conversation");

  /**
   * What the launcher and the engine run, and nothing of a JDK's or Maven's: the PATH of a machine
   * that has never seen Java.
   */
  private static final List<String> COMMANDS =
      List.of(
          "bash",
          "sh",
          "env",
          "readlink",
          "dirname",
          "basename",
          "stat",
          "sed",
          "cat",
          "cksum",
          "cut",
          "find",
          "head",
          "flock",
          "mkdir",
          "rm",
          "mv",
          "ls",
          "sleep",
          "grep",
          "tr",
          "tmux",
          "git",
          "ps",
          "kill",
          "id",
          "uname",
          "date");

  private static Path out;
  private static Path tarball;
  private static Path noJava;

  @BeforeAll
  static void buildTheRelease() throws Exception {
    out = Files.createTempDirectory("clique-release-");
    Path script = Launcher.script().getParent().resolve("release");
    Process release =
        new ProcessBuilder(
                script.toString(), "--jar", Launcher.jar().toString(), "--out", out.toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    String printed = new String(release.getInputStream().readAllBytes()).strip();
    assertThat(release.waitFor(5, TimeUnit.MINUTES)).as("bin/release ends").isTrue();
    assertThat(release.exitValue()).as("bin/release: " + printed).isZero();
    tarball = Path.of(printed);
    assertThat(tarball).isRegularFile().hasFileName(name() + ".tar.gz");
    noJava = Files.createDirectories(out.resolve("path-without-java"));
    for (String command : COMMANDS) {
      Path found = onPath(command);
      assertThat(found).as("the test machine has " + command).isNotNull();
      Files.createSymbolicLink(noJava.resolve(command), found);
    }
  }

  @AfterAll
  static void removeIt() throws IOException {
    if (out != null) {
      try (Stream<Path> files = Files.walk(out)) {
        files.sorted((a, b) -> b.compareTo(a)).forEach(path -> path.toFile().delete());
      }
    }
  }

  private static String name() {
    String arch = System.getProperty("os.arch").matches("amd64|x86_64") ? "x64" : "arm64";
    return "clique-" + version() + "-linux-" + arch;
  }

  private static String version() {
    return System.getProperty("clique.version", "0.1.0-SNAPSHOT");
  }

  private static Path onPath(String command) {
    for (String dir : System.getenv("PATH").split(":")) {
      Path candidate = Path.of(dir, command);
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return null;
  }

  /** The release unpacked with tar into a new folder whose name has spaces. */
  private static Path unpack(String folder) throws Exception {
    Path into = Files.createDirectories(out.resolve(folder));
    Process tar =
        new ProcessBuilder("tar", "-C", into.toString(), "-xzf", tarball.toString())
            .inheritIO()
            .start();
    assertThat(tar.waitFor()).isZero();
    return into.resolve(name());
  }

  /** The environment of a machine with no JDK: no JAVA_HOME, a PATH without java, javac, mvn. */
  private static Map<String, String> withoutJava(ThrowawayEngine engine) {
    Map<String, String> env = engine.env();
    env.remove("JAVA_HOME");
    env.put("PATH", noJava.toString());
    return env;
  }

  private static String run(Map<String, String> env, String... command) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().clear();
    builder.environment().putAll(env);
    Process started = builder.directory(out.toFile()).start();
    String said = new String(started.getInputStream().readAllBytes());
    assertThat(started.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(started.exitValue()).as(said).isZero();
    return said;
  }

  /**
   * A session of an MCP server: the sessions it listed, what it mapped, and its stderr, once it
   * ended.
   */
  private record Dialogue(JsonNode sessions, String maps, String stderr) {}

  private static Dialogue talkTo(Path launcher, Map<String, String> env, Path workdir)
      throws Exception {
    return talkTo(List.of(launcher.toString(), "mcp", "--embedded"), env, workdir);
  }

  private static Dialogue talkTo(List<String> command, Map<String, String> env, Path workdir)
      throws Exception {
    try (Spawned mcp = Spawned.start(command, env, workdir)) {
      McpDialogue dialogue = new McpDialogue(mcp);
      JsonNode init = dialogue.initialize("2025-11-25");
      assertThat(init.at("/result/serverInfo/name").asText()).isEqualTo("clique");
      assertThat(dialogue.toolNames()).containsExactlyElementsOf(TOOLS);
      JsonNode listed = dialogue.callTool("list_sessions", Map.of());
      assertThat(listed.at("/result/isError").asBoolean(true)).as(listed.toString()).isFalse();
      assertThat(listed.at("/result/structuredContent/sessions").isArray()).isTrue();
      String maps = Files.readString(Path.of("/proc", Long.toString(mcp.pid()), "maps"));
      mcp.closeStdin();
      assertThat(mcp.waitFor(Duration.ofSeconds(20))).isZero();
      for (String line : mcp.stdout().split("\n")) {
        assertThat(JSON.readTree(line).path("jsonrpc").asText()).as(line).isEqualTo("2.0");
      }
      return new Dialogue(listed.at("/result/structuredContent/sessions"), maps, mcp.stderr());
    }
  }

  @Test
  void unpackedAnywhereItRunsWithNoJdkNoMavenAndMapsItsArchive() throws Exception {
    Path release = unpack("a folder with spaces");
    Path link = Files.createDirectories(out.resolve("links")).resolve("clique");
    Files.createSymbolicLink(link, release.resolve("bin/clique"));
    try (ThrowawayEngine engine = ThrowawayEngine.prepare()) {
      Map<String, String> env = withoutJava(engine);
      assertThat(
              run(
                  env,
                  noJava.resolve("bash").toString(),
                  "--norc",
                  "-c",
                  "command -v java javac mvn || echo none"))
          .as("the PATH has no JDK and no Maven")
          .isEqualTo("none\n");

      assertThat(run(env, link.toString(), "--version"))
          .matches("clique " + version() + " \\(commit [0-9a-f]{12}(, modified)?\\)\n");

      Dialogue first = talkTo(link, env, engine.workdir);
      assertThat(first.maps())
          .as("the archive made when the release was built is mapped")
          .contains(release.resolve("lib/clique.jsa").toString());
      assertThat(first.stderr()).doesNotContain("warning").doesNotContain("building");
    }
    assertThat(release.resolve("cli")).as("nothing was built").doesNotExist();
  }

  @Test
  void aMissingOrDamagedArchiveIsAWarningAndANormalStart() throws Exception {
    Path release = unpack("damaged archive");
    Path archive = release.resolve("lib/clique.jsa");
    try (ThrowawayEngine engine = ThrowawayEngine.prepare()) {
      Map<String, String> env = withoutJava(engine);
      Path launcher = release.resolve("bin/clique");

      try (FileChannel channel = FileChannel.open(archive, StandardOpenOption.WRITE)) {
        channel.truncate(Files.size(archive) / 2);
      }
      Dialogue truncated = talkTo(launcher, env, engine.workdir);
      assertThat(truncated.stderr()).contains("warning: the class-data archive");
      assertThat(truncated.maps()).doesNotContain(archive.toString());
      awaitRemade(archive);

      // Damaged in place at its own size: the launcher cannot tell, the JVM's check of it can.
      try (FileChannel channel = FileChannel.open(archive, StandardOpenOption.WRITE)) {
        channel.write(ByteBuffer.wrap(new byte[4096]), Files.size(archive) / 2);
      }
      Dialogue damaged = talkTo(launcher, env, engine.workdir);
      assertThat(damaged.maps())
          .as("a damaged archive is not used")
          .doesNotContain(archive.toString());
      assertThat(damaged.stderr()).doesNotContain("fatal error");

      Files.delete(archive);
      Dialogue missing = talkTo(launcher, env, engine.workdir);
      assertThat(missing.stderr()).contains("warning: the class-data archive").contains("missing");
      awaitRemade(archive);
      assertThat(talkTo(launcher, env, engine.workdir).maps())
          .as("the archive made again is mapped")
          .contains(archive.toString());
    }
  }

  /** The launcher makes a missing archive again in the background; at most two minutes. */
  private static void awaitRemade(Path archive) throws Exception {
    Path size = archive.resolveSibling(archive.getFileName() + ".size");
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (System.nanoTime() < deadline) {
      if (Files.isRegularFile(size)
          && Files.isRegularFile(archive)
          && Files.readString(size).strip().equals(Long.toString(Files.size(archive)))) {
        return;
      }
      Thread.sleep(250);
    }
    throw new AssertionError("the archive " + archive + " was not made again within 2 minutes");
  }

  @Test
  void theBundlesManifestIsValidListsTheServersToolsAndRunsUnpacked() throws Exception {
    Path bundle = out.resolve(name() + ".mcpb");
    Path mcpb =
        Path.of(
            System.getProperty("clique.mcpClients", "mcp-clients"), "node_modules", ".bin", "mcpb");
    Path unpacked = out.resolve("bundle unpacked");
    Map<String, String> env = new HashMap<>(System.getenv());
    run(env, mcpb.toString(), "unpack", bundle.toString(), unpacked.toString());
    assertThat(run(env, mcpb.toString(), "validate", unpacked.resolve("manifest.json").toString()))
        .contains("passes");

    JsonNode manifest = JSON.readTree(unpacked.resolve("manifest.json").toFile());
    assertThat(manifest.path("version").asText()).isEqualTo(version());
    assertThat(manifest.at("/server/type").asText()).isEqualTo("binary");
    assertThat(unpacked.resolve(manifest.at("/server/entry_point").asText())).isExecutable();
    List<String> listed = new ArrayList<>();
    manifest.path("tools").forEach(tool -> listed.add(tool.path("name").asText()));
    assertThat(listed).as("the manifest lists the server's tools").containsExactlyElementsOf(TOOLS);

    // As a client runs the bundle: its command, and the settings a person left empty or filled.
    String command =
        manifest
            .at("/server/mcp_config/command")
            .asText()
            .replace("${__dirname}", unpacked.toString());
    assertThat(manifest.at("/server/mcp_config/env/CLIQUE_TOKEN").asText())
        .isEqualTo("${user_config.clique_token}");
    assertThat(manifest.at("/user_config/clique_token/sensitive").asBoolean()).isTrue();
    try (ThrowawayEngine engine = ThrowawayEngine.prepare()) {
      Map<String, String> unset = withoutJava(engine);
      unset.put("CLIQUE_URL", "");
      unset.put("CLIQUE_TOKEN", "");
      assertThat(talkTo(List.of(command), unset, engine.workdir).sessions())
          .as("no token set: the engine inside, with no set-up")
          .isEmpty();
    }
    ThrowawayEngine.WithShell running = ThrowawayEngine.startWithShell("bundle");
    try (ThrowawayEngine engine = running.engine()) {
      Map<String, String> configured = withoutJava(engine);
      configured.put("CLIQUE_URL", engine.url);
      configured.put("CLIQUE_TOKEN", running.reader());
      Dialogue remote = talkTo(List.of(command), configured, engine.workdir);
      assertThat(remote.sessions()).hasSize(1);
      assertThat(remote.sessions().get(0).path("name").asText()).isEqualTo("bundle");
      assertThat(remote.stderr()).doesNotContain(running.reader());
    }
  }

  @Test
  void theRegistryEntryNamesTheBundleByItsSha256() throws Exception {
    JsonNode server = JSON.readTree(out.resolve("server.json").toFile());
    assertThat(server.path("$schema").asText())
        .isEqualTo("https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json");
    // The registry's rules: a reverse-DNS namespace and one slash, at most 100 characters of
    // description, an exact version.
    assertThat(server.path("name").asText()).matches("[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+");
    assertThat(server.path("description").asText()).isNotBlank().hasSizeLessThanOrEqualTo(100);
    assertThat(server.path("version").asText()).isEqualTo(version());
    JsonNode bundle = server.at("/packages/0");
    assertThat(bundle.path("registryType").asText()).isEqualTo("mcpb");
    assertThat(bundle.path("identifier").asText())
        .startsWith("https://")
        .endsWith(name() + ".mcpb");
    assertThat(bundle.at("/transport/type").asText()).isEqualTo("stdio");
    byte[] bytes = Files.readAllBytes(out.resolve(name() + ".mcpb"));
    assertThat(bundle.path("fileSha256").asText())
        .isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)));
  }
}
