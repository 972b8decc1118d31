package dev.clique.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Read-only by construction, checked on the text of the main sources: one place builds an HTTP
 * request, it is a GET, and no write verb appears anywhere, not even in a comment.
 */
class ReadOnlySourceTest {
  private static final Path MAIN = Path.of("src", "main", "java");
  private static final Pattern WRITE_VERB =
      Pattern.compile("\\b(post|put|patch|delete)\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern REQUEST_BUILDER = Pattern.compile("Request\\s*\\.\\s*Builder\\b");
  private static final Pattern NEW_REQUEST_BUILDER =
      Pattern.compile("new\\s+(okhttp3\\s*\\.\\s*)?Request\\s*\\.\\s*Builder\\s*\\(");

  private static Map<Path, String> mainSources() throws IOException {
    Map<Path, String> sources = new TreeMap<>();
    try (Stream<Path> files = Files.walk(MAIN)) {
      for (Path file :
          (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java"))::iterator) {
        sources.put(MAIN.relativize(file), Files.readString(file, StandardCharsets.UTF_8));
      }
    }
    assertThat(sources).as("main sources found").hasSizeGreaterThan(10);
    return sources;
  }

  private static List<String> find(Pattern pattern, Map<Path, String> sources) {
    List<String> hits = new ArrayList<>();
    sources.forEach(
        (file, text) -> {
          Matcher m = pattern.matcher(text);
          while (m.find()) {
            int line = text.substring(0, m.start()).split("\n", -1).length;
            hits.add(file + ":" + line + ": " + m.group());
          }
        });
    return hits;
  }

  @Test
  void noWriteVerbAppearsAnywhereInTheMainSources() throws IOException {
    assertThat(find(WRITE_VERB, mainSources())).isEmpty();
  }

  @Test
  void exactlyOnePlaceBuildsARequestAndItIsAGet() throws IOException {
    Map<Path, String> sources = mainSources();

    List<String> sites = find(NEW_REQUEST_BUILDER, sources);
    assertThat(sites).hasSize(1);
    assertThat(find(REQUEST_BUILDER, sources)).as("no other use of Request.Builder").hasSize(1);

    String text = sources.get(Path.of(sites.get(0).substring(0, sites.get(0).indexOf(':'))));
    Matcher site = NEW_REQUEST_BUILDER.matcher(text);
    assertThat(site.find()).isTrue();
    String statement = text.substring(site.start(), text.indexOf(';', site.start()));
    assertThat(statement).contains(".get()").doesNotContain(".method(");
  }

  @Test
  void noRequestEverCarriesABody() throws IOException {
    Map<Path, String> sources = mainSources();

    assertThat(find(Pattern.compile("RequestBody|\\.method\\s*\\("), sources)).isEmpty();
  }

  @Test
  void theScanFindsWhatItLooksFor() {
    Map<Path, String> sample =
        Map.of(
            Path.of("Sample.java"),
            "// output and input are fine\nnew Request.Builder().url(u).post(body);\nDELETE");

    assertThat(find(WRITE_VERB, sample))
        .containsExactly("Sample.java:2: post", "Sample.java:3: DELETE");
    assertThat(find(NEW_REQUEST_BUILDER, sample))
        .containsExactly("Sample.java:2: new Request.Builder(");
  }
}
