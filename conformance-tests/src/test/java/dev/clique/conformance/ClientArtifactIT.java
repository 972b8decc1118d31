package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * client-lib as someone else's project gets it: {@code mvn install} puts {@code
 * dev.clique:clique-client} (with its sources, its javadoc, and the BOM) in the local repository,
 * and a project outside the reactor that imports the BOM builds against it and reads a real engine.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
class ClientArtifactIT {
  private static final Path ROOT = Launcher.script().getParent().getParent();
  private static final String VERSION = System.getProperty("clique.version", "0.1.0-SNAPSHOT");

  @TempDir Path dir;

  @Test
  void aProjectOutsideTheReactorBuildsAgainstTheInstalledClientAndReadsAnEngine() throws Exception {
    // The install runs on a copy of the sources, so that this build's own outputs stay as they are.
    Path sources = dir.resolve("sources");
    copy(ROOT.resolve("pom.xml"), sources.resolve("pom.xml"));
    copy(ROOT.resolve("LICENSE"), sources.resolve("LICENSE"));
    for (String module :
        List.of(
            "session-engine",
            "mcp-server",
            "cli",
            "model-servers",
            "conformance-tests",
            "benchmarks")) {
      copy(ROOT.resolve(module).resolve("pom.xml"), sources.resolve(module).resolve("pom.xml"));
    }
    copyTree(ROOT.resolve("bom"), sources.resolve("bom"));
    copyTree(ROOT.resolve("client-lib"), sources.resolve("client-lib"));
    // client-lib's tests use the fake engine, so -am builds it too: whole, not an empty jar.
    copyTree(ROOT.resolve("fake-engine"), sources.resolve("fake-engine"));
    copyTree(ROOT.resolve("contract"), sources.resolve("contract"));
    String installed =
        maven(
            sources,
            "install",
            "-pl",
            "bom,client-lib",
            "-am",
            "-Dmaven.test.skip=true",
            "-Dspotless.check.skip=true");

    Path repository = Path.of(System.getProperty("clique.localRepository"));
    Path client = repository.resolve("dev/clique/clique-client/" + VERSION);
    for (String file :
        List.of(
            "clique-client-" + VERSION + ".jar",
            "clique-client-" + VERSION + "-sources.jar",
            "clique-client-" + VERSION + "-javadoc.jar",
            "clique-client-" + VERSION + ".pom")) {
      assertThat(client.resolve(file)).as(file + "\n" + installed).isRegularFile();
    }
    assertThat(
            repository.resolve(
                "dev/clique/clique-bom/" + VERSION + "/clique-bom-" + VERSION + ".pom"))
        .isRegularFile();
    String pom =
        Files.readString(
            repository.resolve(
                "dev/clique/clique-parent/" + VERSION + "/clique-parent-" + VERSION + ".pom"));
    assertThat(pom)
        .as("what Maven Central asks of a POM")
        .contains("<licenses>", "<scm>", "<developers>", "<url>", "<description>");
    try (JarFile jar =
        new JarFile(client.resolve("clique-client-" + VERSION + "-sources.jar").toFile())) {
      assertThat(jar.getEntry("dev/clique/client/CliqueClient.java")).isNotNull();
    }

    Path example = dir.resolve("example");
    copyTree(Path.of("src/test/resources/client-example"), example);
    maven(
        example,
        "package",
        "dependency:build-classpath",
        "-Dmdep.outputFile=classpath.txt",
        "-Dclique.version=" + VERSION);
    String classpath = Files.readString(example.resolve("classpath.txt")).strip();
    assertThat(classpath)
        .as("the client comes from the local repository, not from this build")
        .contains(client.resolve("clique-client-" + VERSION + ".jar").toString())
        .doesNotContain(ROOT.resolve("client-lib").toString());

    ThrowawayEngine.WithShell running = ThrowawayEngine.startWithShell("artifact");
    try (ThrowawayEngine engine = running.engine()) {
      ProcessBuilder run =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-cp",
                  example.resolve("target/classes") + ":" + classpath,
                  "example.ListSessions")
              .redirectErrorStream(true);
      run.environment().putAll(Map.of("CLIQUE_URL", engine.url, "CLIQUE_TOKEN", running.reader()));
      Process listed = run.start();
      String printed = new String(listed.getInputStream().readAllBytes());
      assertThat(listed.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(listed.exitValue()).as(printed).isZero();
      assertThat(printed).startsWith("artifact ");
    }
  }

  /**
   * Runs Maven in {@code project}; what it printed. Not offline: on a fresh machine the install
   * plugin, which the reactor's own {@code verify} never needs, may not be there yet.
   */
  private static String maven(Path project, String... goals) throws Exception {
    List<String> command = new ArrayList<>(List.of("mvn", "-B", "-ntp"));
    command.addAll(List.of(goals));
    Process maven =
        new ProcessBuilder(command).directory(project.toFile()).redirectErrorStream(true).start();
    String printed = new String(maven.getInputStream().readAllBytes());
    assertThat(maven.waitFor(5, TimeUnit.MINUTES)).as("mvn ends").isTrue();
    assertThat(maven.exitValue()).as(printed).isZero();
    return printed;
  }

  private static void copy(Path from, Path to) throws IOException {
    Files.createDirectories(to.getParent());
    Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Path relative = from.relativize(file);
        if (relative.startsWith("target")) {
          continue;
        }
        Path target = to.resolve(relative.toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          copy(file, target);
        }
      }
    }
  }
}
