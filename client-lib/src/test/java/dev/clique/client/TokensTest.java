package dev.clique.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TokensTest {
  @Test
  void everyTokenShapedWordAndEveryBearerValueIsMasked() {
    assertThat(Tokens.scrub("token mxp_abcdefgh1234, again mxp_ZZZZ_zzzz-99."))
        .isEqualTo("token mxp_…, again mxp_….");
    assertThat(Tokens.scrub("Authorization: Bearer s3cr3t-value"))
        .isEqualTo("Authorization: Bearer mxp_…");
    assertThat(Tokens.scrub("Bearer mxp_abcdefgh1234!")).isEqualTo("Bearer mxp_…!");
    assertThat(Tokens.scrub("mxp_short stays: too short to be one"))
        .isEqualTo("mxp_short stays: too short to be one");
    assertThat(Tokens.scrub(null)).isNull();
  }
}
