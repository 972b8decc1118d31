package dev.clique.mcp.resources;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clique.mcp.resources.ResourceUri.Kind;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The four URI shapes, read and written, and everything else refused. */
class ResourceUriTest {
  private static final String ID = "3f2b8c1e-5a47-4d0e-9b6f-2c81d4e7a915";

  @Test
  void theFourShapesReadAsTheirKindAndWriteBackTheSame() {
    Map<String, ResourceUri> shapes =
        Map.of(
            "clique://sessions",
            ResourceUri.sessions(),
            "clique://sessions/" + ID,
            ResourceUri.of(Kind.SESSION, ID),
            "clique://sessions/" + ID + "/pane",
            ResourceUri.of(Kind.PANE, ID),
            "clique://sessions/" + ID + "/conversation",
            ResourceUri.of(Kind.CONVERSATION, ID));
    shapes.forEach(
        (text, uri) -> {
          assertThat(ResourceUri.parse(text)).as(text).contains(uri);
          assertThat(uri.text()).isEqualTo(text);
        });
  }

  @Test
  void anIdIsPercentDecodedAndWrittenEncoded() {
    assertThat(ResourceUri.parse("clique://sessions/a%20b%2Fc%C3%A9/pane"))
        .contains(ResourceUri.of(Kind.PANE, "a b/cé"));
    assertThat(ResourceUri.of(Kind.SESSION, "a b/cé").text())
        .isEqualTo("clique://sessions/a%20b%2Fc%C3%A9");
  }

  @Test
  void aSessionMayBeCalledPaneOrConversation() {
    assertThat(ResourceUri.parse("clique://sessions/pane"))
        .contains(ResourceUri.of(Kind.SESSION, "pane"));
    assertThat(ResourceUri.parse("clique://sessions/pane/conversation"))
        .contains(ResourceUri.of(Kind.CONVERSATION, "pane"));
  }

  @Test
  void everythingElseIsNoneOfClique() {
    for (String uri :
        List.of(
            "",
            "clique:",
            "clique://sessions/",
            "clique://sessions//pane",
            "clique://Sessions",
            "CLIQUE://sessions",
            "clique://sessions?x=1",
            "clique://sessions#top",
            "clique://sessions/" + ID + "/",
            "clique://sessions/" + ID + "/keys",
            "clique://sessions/" + ID + "/pane/more",
            "clique://sessions/" + ID + "?lines=5",
            "clique://sessions/a%2",
            "clique://sessions/a%zz",
            "clique://sessions/%FF",
            "clique://sessions/%20",
            "clique://sessions/.",
            "clique://sessions/..",
            "clique://sessions/a b",
            "https://sessions/" + ID,
            "file:///home/dev/project")) {
      assertThat(ResourceUri.parse(uri)).as(uri).isEqualTo(Optional.empty());
    }
  }
}
