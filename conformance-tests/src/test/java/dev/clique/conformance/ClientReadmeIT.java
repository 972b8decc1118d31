package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.client.CliqueClient;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * client-lib's README example, compiled with plain javac against the library's jars and run as a
 * separate program against a live {@code clique serve}: what its README promises, it does.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
class ClientReadmeIT {
  @Test
  void theReadmeExampleSeesASessionOfALiveEngine() throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare().start()) {
      String admin = engine.mintToken("readme-admin", false);
      String reader = engine.mintToken("readme-reader", true);
      String id = engine.createShell(admin, "readme-shell");

      Path dir = Files.createTempDirectory(engine.workdir, "watch-");
      Path source = dir.resolve(exampleClassName() + ".java");
      Files.writeString(source, example(), StandardCharsets.UTF_8);
      String classPath = classPath();
      Path javac = Path.of(System.getProperty("java.home"), "bin", "javac");
      try (Spawned compile =
          Spawned.start(
              List.of(javac.toString(), "-cp", classPath, "-d", dir.toString(), source.toString()),
              engine.env(),
              dir)) {
        assertThat(compile.waitFor(Duration.ofSeconds(60))).as(compile.stderr()).isZero();
      }

      Map<String, String> env = engine.mcpEnv(reader);
      Path java = Path.of(System.getProperty("java.home"), "bin", "java");
      try (Spawned watch =
          Spawned.start(
              List.of(
                  java.toString(),
                  "-cp",
                  classPath + File.pathSeparator + dir,
                  exampleClassName(),
                  id),
              env,
              dir)) {
        assertThat(watch.waitFor(Duration.ofSeconds(90))).as(watch.stderr()).isZero();
        assertThat(watch.stdout())
            .contains("engine ")
            .contains(id)
            .contains("readme-shell")
            .containsPattern("now (idle|waiting)");
        assertThat(watch.stdout() + watch.stderr()).doesNotContain(reader);
      }
    }
  }

  private static String example() throws Exception {
    String readme = Files.readString(Path.of("..", "client-lib", "README.md"));
    Matcher block = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(readme);
    assertThat(block.find()).as("a ```java block in client-lib/README.md").isTrue();
    return block.group(1);
  }

  private static String exampleClassName() throws Exception {
    Matcher name = Pattern.compile("public class (\\w+)").matcher(example());
    assertThat(name.find()).isTrue();
    return name.group(1);
  }

  /** The library and its runtime dependencies, as a user's class path would hold them. */
  private static String classPath() {
    return Stream.of(
            CliqueClient.class,
            OkHttpClient.class,
            okio.Buffer.class,
            kotlin.Unit.class,
            ObjectMapper.class,
            JsonParser.class,
            JsonProperty.class)
        .map(type -> type.getProtectionDomain().getCodeSource().getLocation().getPath())
        .distinct()
        .collect(Collectors.joining(File.pathSeparator));
  }
}
