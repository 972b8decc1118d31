package dev.clique.engine.transcript;

import java.nio.file.Path;

/** Transcript roots laid out under one test home, as the CLIs lay them out under a user's. */
final class TestRoots {

  private TestRoots() {}

  static TranscriptRoots under(Path home) {
    return new TranscriptRoots(
        home.resolve(".claude"),
        home.resolve(".codex"),
        home.resolve(".gemini"),
        home.resolve(".qwen"),
        home.resolve(".copilot"),
        home.resolve(".pi/agent"),
        home.resolve(".local/share/opencode/opencode.db"));
  }
}
