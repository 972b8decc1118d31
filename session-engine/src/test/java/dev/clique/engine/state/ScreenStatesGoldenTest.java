package dev.clique.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clique.engine.catalogue.CliCatalogue;
import dev.clique.engine.catalogue.CliDefinition;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden files: {@code states/NAME.txt} is a pane's text (optionally headed by {@code cli: ID} and
 * a {@code ---} line, to read it with that CLI's own patterns from the bundled catalogue) and
 * {@code states/NAME.expected} the state and saying of a pane that has fallen quiet on it (and,
 * where it says, the attention kind, the generic question pattern that matched and when a usage
 * limit lifts in the CLI's words).
 */
class ScreenStatesGoldenTest {
  private static final CliCatalogue CATALOGUE = CliCatalogue.load(null, Map.of("PATH", ""));

  static Stream<String> cases() throws IOException, URISyntaxException {
    Path dir = Path.of(ScreenStatesGoldenTest.class.getResource("/states").toURI());
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".txt"))
          .map(n -> n.substring(0, n.length() - 4))
          .sorted()
          .toList()
          .stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void aQuietPaneReadsAsItsGoldenState(String name) throws Exception {
    Path dir = Path.of(getClass().getResource("/states").toURI());
    String text = Files.readString(dir.resolve(name + ".txt"));
    CliDefinition cli = null;
    if (text.startsWith("cli: ")) {
      int end = text.indexOf("\n---\n");
      cli = CATALOGUE.find(text.substring(5, end).strip()).orElseThrow();
      text = text.substring(end + 5);
    }
    Map<String, String> expected = new LinkedHashMap<>();
    for (String line : Files.readAllLines(dir.resolve(name + ".expected"))) {
      int colon = line.indexOf(':');
      if (colon > 0) {
        expected.put(line.substring(0, colon), line.substring(colon + 1).strip());
      }
    }

    Reading reading = ScreenReader.read(text, cli);
    String state =
        switch (reading.kind()) {
          case NOTHING -> "idle";
          case WAITING -> "waiting";
          case ERROR -> "error";
          case WORKING -> "working";
        };
    assertThat(state).as("state of %s", name).isEqualTo(expected.get("state"));
    if (!state.equals("working")) { // a working screen's status line is no saying
      assertThat(reading.line()).as("saying of %s", name).isEqualTo(expected.get("saying"));
    }
    if (expected.containsKey("attention")) {
      assertThat(reading.attention())
          .as("attention of %s", name)
          .isEqualTo(expected.get("attention"));
    }
    assertThat(reading.resets())
        .as("when the usage limit of %s lifts, in its words", name)
        .isEqualTo(expected.getOrDefault("resets", ""));
    if (expected.containsKey("generic")) {
      assertThat(reading.generic())
          .as("generic pattern of %s", name)
          .isEqualTo(expected.get("generic"));
    }
    assertThat(reading.line().length()).isLessThanOrEqualTo(200);
  }
}
