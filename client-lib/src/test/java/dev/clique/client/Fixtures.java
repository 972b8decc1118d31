package dev.clique.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the client tests share: the token, the contract files and a stub engine. */
final class Fixtures {
  /** Shaped like a real token: {@code mxp_} and 43 base64url characters. */
  static final String TOKEN = "mxp_Zk3pQ9rT7vW2xY5aB8cD1eF4gH6iJ0kL3mN5oP7qR9s";

  /** The golden files the engine's tests read too. */
  static final Path CONTRACT = Path.of("..", "contract");

  /** Ids of the two sessions in {@code state.json}. */
  static final String CLAUDE_ID = "3f2b8c1e-5a47-4d0e-9b6f-2c81d4e7a915";

  static final String SHELL_ID = "b7e4a0d2-91c3-4f6a-8e25-6d0f3c9a1b48";

  // Read as the client reads: decimals kept exact.
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  private Fixtures() {}

  static WireMockExtension stubEngine() {
    return WireMockExtension.newInstance()
        .options(
            WireMockConfiguration.wireMockConfig()
                .dynamicPort()
                .bindAddress("127.0.0.1")
                .containerThreads(40))
        .build();
  }

  static String urlOf(WireMockExtension engine) {
    return "http://127.0.0.1:" + engine.getPort();
  }

  static String contract(String name) {
    try {
      return Files.readString(CONTRACT.resolve(name), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static JsonNode contractJson(String name) {
    try {
      return JSON.readTree(contract(name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A value's JSON text, read. */
  static JsonNode tree(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static CliqueClient.Builder clientOf(WireMockExtension engine) {
    return CliqueClient.builder().baseUrl(urlOf(engine)).token(TOKEN);
  }

  /** The token must not be in the message, the engine text or the text of any cause. */
  static void assertNoToken(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      assertThat(String.valueOf(t.getMessage())).doesNotContain(TOKEN);
      assertThat(t.toString()).doesNotContain(TOKEN);
    }
    if (e instanceof CliqueException) {
      assertThat(((CliqueException) e).engineError().orElse("")).doesNotContain(TOKEN);
    }
  }
}
