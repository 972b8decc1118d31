package dev.clique.engine.notify;

import static dev.clique.engine.notify.Views.waiting;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.session.SessionView;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each format against the body its service documents. */
class FormatTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant AT = Instant.parse("2026-12-07T18:00:00Z");
  private static final String ENGINE = "http://127.0.0.1:3200";

  private static Notice asking(String name, String question) {
    return new Notice(Event.WAITING, List.of(waiting("s1", name, "question", question)), AT);
  }

  private static JsonNode render(Format format, Notice notice, String url) throws Exception {
    return JSON.readTree(format.render(notice, URI.create(url), null, ENGINE).body());
  }

  @Test
  void jsonIsTheEventTheSessionItsStateAttentionUsageAndTime() throws Exception {
    JsonNode body =
        render(Format.JSON, asking("api", "Continue? (y/n)"), "https://example.com/hook");
    assertThat(body.path("event").asText()).isEqualTo("waiting");
    JsonNode session = body.path("session");
    assertThat(session.path("id").asText()).isEqualTo("s1");
    assertThat(session.path("name").asText()).isEqualTo("api");
    assertThat(session.path("cli").asText()).isEqualTo("shell");
    assertThat(session.path("cwd").asText()).isEqualTo("/home/someone/project");
    assertThat(session.path("engine").asText()).isEqualTo(ENGINE);
    assertThat(body.path("state").asText()).isEqualTo("waiting");
    assertThat(body.path("attention").path("kind").asText()).isEqualTo("question");
    assertThat(body.path("attention").path("detail").asText()).isEqualTo("Continue? (y/n)");
    assertThat(body.path("attention").path("since").asDouble()).isEqualTo(1_700_000_000.0);
    assertThat(body.has("usage")).isTrue();
    assertThat(body.path("at").asText()).isEqualTo("2026-12-07T18:00:00Z");
  }

  @Test
  void ntfyIsItsJsonPublishingPostedToTheServerRootWithTheTopicInTheBody() throws Exception {
    Notice notice = asking("api", "Continue? (y/n)");
    Format.Payload payload =
        Format.NTFY.render(
            notice,
            URI.create("https://ntfy.example.com/base/my-topic"),
            "https://x.test/s1",
            ENGINE);
    assertThat(payload.url()).isEqualTo(URI.create("https://ntfy.example.com/base/"));
    JsonNode body = JSON.readTree(payload.body());
    assertThat(body.path("topic").asText()).isEqualTo("my-topic");
    assertThat(body.path("title").asText()).isEqualTo("api needs you");
    assertThat(body.path("message").asText()).startsWith("question: Continue? (y/n)");
    assertThat(body.path("priority").asInt()).isEqualTo(4);
    assertThat(body.path("tags").isArray()).isTrue();
    assertThat(body.path("tags").get(0).asText()).isEqualTo("bell");
    assertThat(body.path("click").asText()).isEqualTo("https://x.test/s1");
    assertThat(
            Format.NTFY
                .render(notice, URI.create("https://ntfy.sh/t?auth=QmFzaWM"), null, ENGINE)
                .url())
        .as("the access token of the query stays")
        .isEqualTo(URI.create("https://ntfy.sh/?auth=QmFzaWM"));
  }

  @Test
  void slackTextHasItsControlCharactersEscapedAndPingsNobody() throws Exception {
    JsonNode body =
        render(
            Format.SLACK,
            asking("<!channel> @here & *bold*", "a\nb <@U123>"),
            "https://hooks.slack.test/T/B/x");
    String text = body.path("text").asText();
    assertThat(text).doesNotContain("<!channel>").doesNotContain("<@U123>").doesNotContain("@here");
    assertThat(text).contains("&lt;!channel&gt;").contains("&amp;").contains("@\u2060here");
    assertThat(text.lines())
        .as("the title, then the message: a name's line breaks are spaces")
        .hasSize(2);
    assertThat(body.path("mrkdwn").asBoolean(true)).isFalse();
    assertThat(body.size()).as("only text and mrkdwn").isEqualTo(2);
  }

  @Test
  void discordContentAllowsNoMentionAndShowsMarkdownAsWritten() throws Exception {
    JsonNode body =
        render(
            Format.DISCORD,
            asking("@everyone **x** `y`", "go?"),
            "https://discord.test/api/webhooks/1/t");
    assertThat(body.path("allowed_mentions").path("parse").isArray()).isTrue();
    assertThat(body.path("allowed_mentions").path("parse")).isEmpty();
    String content = body.path("content").asText();
    assertThat(content).contains("\\@everyone").contains("\\*\\*x\\*\\*").contains("\\`y\\`");
  }

  @Test
  void aStoppedSessionIsToldWithItsExitStatusAndLastLineOnOneLine() throws Exception {
    Notice stopped =
        new Notice(Event.STOPPED, List.of(Views.exited("s1", 2)), AT)
            .withLastLines(java.util.Map.of("s1", "Error: config\u001b[31m broken"));
    JsonNode body = render(Format.JSON, stopped, "https://example.com/hook");
    assertThat(body.path("exit_status").asInt()).isEqualTo(2);
    assertThat(body.path("last_line").asText()).isEqualTo("Error: config [31m broken");
    assertThat(body.path("message").asText())
        .endsWith(": exited with status 2; its last line: Error: config [31m broken");
  }

  @Test
  void everyPayloadIsBounded() throws Exception {
    String huge = "x".repeat(100_000);
    SessionView view = Views.view("s1", huge, "shell", "idle", null, null, null);
    Notice many = new Notice(Event.FINISHED, java.util.Collections.nCopies(500, view), AT);
    for (Format format : Format.values()) {
      String body = format.render(many, URI.create("https://ntfy.sh/topic"), null, ENGINE).body();
      assertThat(body.length()).as(format + " body").isLessThan(16_000);
    }
    assertThat(render(Format.DISCORD, many, "https://d.test/x").path("content").asText().length())
        .isLessThanOrEqualTo(Format.DISCORD_MAX);
    assertThat(render(Format.NTFY, many, "https://ntfy.sh/t").path("message").asText().length())
        .isLessThanOrEqualTo(Format.TEXT_MAX);
  }

  @Test
  void logsShowAUrlWithItsPathAndQueryMasked() {
    assertThat(Target.masked(URI.create("https://ntfy.sh/secret-topic?auth=abc")))
        .isEqualTo("https://ntfy.sh/***");
    assertThat(Target.masked(URI.create("http://127.0.0.1:8080/hooks/T0/B0/XXXX")))
        .isEqualTo("http://127.0.0.1:8080/***");
    assertThat(Target.masked(URI.create("https://example.com"))).isEqualTo("https://example.com");
  }
}
