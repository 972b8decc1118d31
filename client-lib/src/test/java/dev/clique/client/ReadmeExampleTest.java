package dev.clique.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's example is complete: it compiles as it stands, against the library alone. */
class ReadmeExampleTest {
  private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);

  private static String jarOf(Class<?> type) throws URISyntaxException {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }

  @Test
  void theExampleCompilesWithPlainJavac(@TempDir Path dir) throws Exception {
    String readme = Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);
    Matcher block = JAVA_BLOCK.matcher(readme);
    assertThat(block.find()).as("a ```java block in README.md").isTrue();
    String example = block.group(1);
    Matcher name = Pattern.compile("public class (\\w+)").matcher(example);
    assertThat(name.find()).as("a public class in the example").isTrue();
    Path source = dir.resolve(name.group(1) + ".java");
    Files.writeString(source, example, StandardCharsets.UTF_8);

    String classPath =
        Stream.of(
                CliqueClient.class,
                OkHttpClient.class,
                okio.Buffer.class,
                kotlin.Unit.class,
                ObjectMapper.class,
                JsonParser.class,
                com.fasterxml.jackson.annotation.JsonProperty.class)
            .map(
                type -> {
                  try {
                    return jarOf(type);
                  } catch (URISyntaxException e) {
                    throw new IllegalStateException(e);
                  }
                })
            .distinct()
            .collect(Collectors.joining(File.pathSeparator));
    Path javac = Path.of(System.getProperty("java.home"), "bin", "javac");
    Process process =
        new ProcessBuilder(
                javac.toString(), "-cp", classPath, "-d", dir.toString(), source.toString())
            .redirectErrorStream(true)
            .start();
    String diagnostics =
        new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    boolean compiled = process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0;

    assertThat(compiled).as(diagnostics).isTrue();
    assertThat(dir.resolve(name.group(1) + ".class")).exists();
  }
}
