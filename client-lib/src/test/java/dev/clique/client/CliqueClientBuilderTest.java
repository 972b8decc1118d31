package dev.clique.client;

import static dev.clique.client.Fixtures.TOKEN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/** What the builder refuses, and that it never shows the token. */
class CliqueClientBuilderTest {
  private static final String HOW_TO_MAKE_ONE =
      "a clique token is required: make one with `clique token create <name> --read-only`";

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(strings = {"   ", "\t\n"})
  void aMissingOrBlankTokenIsRefusedWithHowToMakeOne(String token) {
    assertThatThrownBy(() -> CliqueClient.builder().token(token))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(HOW_TO_MAKE_ONE);
  }

  @Test
  void buildingWithoutATokenIsRefusedWithHowToMakeOne() {
    assertThatThrownBy(() -> CliqueClient.builder().baseUrl("http://127.0.0.1:3200").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(HOW_TO_MAKE_ONE);
  }

  @Test
  void aTokenAHeaderCannotCarryIsRefusedWithoutShowingIt() {
    IllegalArgumentException e =
        catchThrowableOfType(
            IllegalArgumentException.class,
            () -> CliqueClient.builder().token(TOKEN + "\r\nX-Evil: 1"));

    assertThat(e.getMessage()).contains("a character a header cannot carry").doesNotContain(TOKEN);
  }

  @Test
  void whiteSpaceAroundTheTokenIsDropped() {
    CliqueClient client = CliqueClient.builder().token("  " + TOKEN + "\n").build();

    assertThat(client.baseUrl()).isEqualTo("http://127.0.0.1:3200");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "ftp://127.0.0.1:3200",
        "file:///tmp/clique",
        "127.0.0.1:3200",
        "localhost",
        "ws://127.0.0.1:3200",
        ""
      })
  void onlyHttpAndHttpsUrlsAreAccepted(String url) {
    assertThatThrownBy(() -> CliqueClient.builder().token(TOKEN).baseUrl(url))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("the clique URL must be an http:// or https:// URL");
  }

  @Test
  void aRefusedUrlNeverShowsTheToken() {
    IllegalArgumentException e =
        catchThrowableOfType(
            IllegalArgumentException.class,
            () -> CliqueClient.builder().token(TOKEN).baseUrl("ftp://host/?t=" + TOKEN));

    assertThat(e.getMessage()).contains("ftp://host/?t=mxp_…").doesNotContain(TOKEN);
  }

  @Test
  void aUrlWithAPasswordIsRefusedWithoutEchoingIt() {
    IllegalArgumentException e =
        catchThrowableOfType(
            IllegalArgumentException.class,
            () -> CliqueClient.builder().baseUrl("http://me:secret@127.0.0.1:3200"));

    assertThat(e.getMessage())
        .isEqualTo(
            "the clique URL must not carry a user name or password: the token is sent in a"
                + " header");
  }

  @Test
  void aUrlWithAQueryIsRefused() {
    assertThatThrownBy(() -> CliqueClient.builder().baseUrl("http://127.0.0.1:3200/?x=1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("the clique URL must not have a query or a fragment");
  }

  @Test
  void httpsUrlsAndUrisAreAccepted() {
    CliqueClient https =
        CliqueClient.builder().baseUrl("https://clique.example.org/panel/").token(TOKEN).build();
    CliqueClient uri =
        CliqueClient.builder().baseUrl(URI.create("http://[::1]:3200")).token(TOKEN).build();

    assertThat(https.baseUrl()).isEqualTo("https://clique.example.org/panel");
    assertThat(uri.baseUrl()).isEqualTo("http://[::1]:3200");
  }

  @Test
  void toStringNeverShowsTheToken() {
    CliqueClient.Builder builder =
        CliqueClient.builder().baseUrl("http://127.0.0.1:3200").token(TOKEN);
    CliqueClient client = builder.build();

    assertThat(builder.toString())
        .doesNotContain(TOKEN)
        .contains("baseUrl=http://127.0.0.1:3200")
        .contains("token=mxp_…");
    assertThat(client.toString())
        .doesNotContain(TOKEN)
        .isEqualTo("CliqueClient{baseUrl=http://127.0.0.1:3200, token=mxp_…}");
    assertThat(CliqueClient.builder().toString()).contains("token=none");
  }

  @Test
  void timeOutsMustBePositive() {
    assertThatThrownBy(() -> CliqueClient.builder().timeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("timeout must be positive");
    assertThatThrownBy(() -> CliqueClient.builder().waitMargin(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("waitMargin must be positive");
  }

  @Test
  void theDefaultUrlIsTheLocalEngine() {
    assertThat(CliqueClient.builder().token(TOKEN).build().baseUrl())
        .isEqualTo(CliqueClient.Builder.DEFAULT_URL)
        .isEqualTo("http://127.0.0.1:3200");
  }

  @Test
  void sessionStatesKnowTheirWireNames() {
    for (SessionState state : SessionState.values()) {
      assertThat(SessionState.fromWire(state.wireName())).isEqualTo(state);
    }
    assertThat(SessionState.fromWire("IDLE")).isEqualTo(SessionState.IDLE);
    assertThat(SessionState.fromWire("thinking")).isEqualTo(SessionState.UNKNOWN);
    assertThat(SessionState.fromWire(null)).isEqualTo(SessionState.UNKNOWN);
  }
}
