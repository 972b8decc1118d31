package dev.clique.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The jbang alias at the top of the repository runs this command, at this version. */
class JbangCatalogTest {
  @Test
  void theAliasNamesThisArtifactAtThisVersionAndItsMainClass() throws Exception {
    JsonNode alias =
        new ObjectMapper()
            .readTree(Path.of("..", "jbang-catalog.json").toFile())
            .at("/aliases/clique");
    assertThat(alias.path("script-ref").asText())
        .isEqualTo("dev.clique:clique-cli:" + BuildInfo.current().version());
    assertThat(Class.forName(alias.path("main").asText())).isEqualTo(CliqueCommand.class);
    assertThat(alias.path("java").asText()).isEqualTo("17+");
  }
}
