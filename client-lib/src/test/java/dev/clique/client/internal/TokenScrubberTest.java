package dev.clique.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TokenScrubberTest {
  private static final String TOKEN = "mxp_Zk3pQ9rT7vW2xY5aB8cD1eF4gH6iJ0kL3mN5oP7qR9s";

  @Test
  void theTokenBecomesAMaskEverywhereItAppears() {
    TokenScrubber scrubber = new TokenScrubber(TOKEN);

    assertThat(scrubber.scrub("a " + TOKEN + " b " + TOKEN)).isEqualTo("a mxp_… b mxp_…");
  }

  @Test
  void anythingShapedLikeATokenIsMaskedEvenWithoutKnowingIt() {
    TokenScrubber scrubber = new TokenScrubber(null);

    assertThat(scrubber.scrub("Bearer mxp_AAAAaaaa1234-_x!")).isEqualTo("Bearer mxp_…!");
    assertThat(scrubber.scrub("mxp_ alone")).isEqualTo("mxp_ alone");
    assertThat(scrubber.scrub(null)).isNull();
  }

  @Test
  void aTokenOfAnotherShapeIsMaskedToo() {
    assertThat(new TokenScrubber("s3cr3t-value").scrub("got s3cr3t-value")).isEqualTo("got mxp_…");
  }
}
