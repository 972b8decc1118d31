package dev.clique.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every public element of the exported package is documented, and the documentation is sound. */
class JavadocTest {
  private static String jarOf(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void theApiPassesJavadocsStrictestLint(@TempDir Path out) throws Exception {
    String modulePath =
        Stream.of(
                OkHttpClient.class,
                okio.Buffer.class,
                kotlin.Unit.class,
                ObjectMapper.class,
                JsonParser.class,
                com.fasterxml.jackson.annotation.JsonProperty.class)
            .map(JavadocTest::jarOf)
            .distinct()
            .collect(Collectors.joining(File.pathSeparator));
    Path javadoc = Path.of(System.getProperty("java.home"), "bin", "javadoc");
    Process process =
        new ProcessBuilder(
                javadoc.toString(),
                "-quiet",
                "-Xdoclint:all",
                "-d",
                out.toString(),
                "--module-path",
                modulePath,
                "--module-source-path",
                "dev.clique.client=" + Path.of("src", "main", "java"),
                "--module",
                "dev.clique.client")
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(output).doesNotContain("warning").doesNotContain("error");
    assertThat(process.exitValue()).as(output).isZero();
  }
}
