package dev.clique.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.fake.FakeEngine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the server's tests share: a token, the contract files, their session ids, an engine. */
final class Fixtures {
  /** Shaped like a real token: {@code mxp_} and 43 base64url characters. */
  static final String TOKEN = "mxp_Zk3pQ9rT7vW2xY5aB8cD1eF4gH6iJ0kL3mN5oP7qR9s";

  /** The golden files of the engine's answers, shared by the engine's and client's tests. */
  static final Path CONTRACT = Path.of("..", "contract");

  /** Ids of the two sessions in {@code state.json}. */
  static final String CLAUDE_ID = "3f2b8c1e-5a47-4d0e-9b6f-2c81d4e7a915";

  static final String SHELL_ID = "b7e4a0d2-91c3-4f6a-8e25-6d0f3c9a1b48";

  /** The version the tests' servers are given to name. */
  static final String VERSION = "4.5.6-test";

  static final ObjectMapper JSON = new ObjectMapper();

  private Fixtures() {}

  /** An engine answering the contract's reads of its two sessions; any other session is a 404. */
  static FakeEngine contractEngine() throws IOException {
    return FakeEngine.start().servingTheContract(CLAUDE_ID, SHELL_ID);
  }

  static String contract(String name) {
    try {
      return Files.readString(CONTRACT.resolve(name), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static JsonNode contractJson(String name) {
    return json(contract(name));
  }

  static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
