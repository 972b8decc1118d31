package dev.clique.cli;

/** Every exit status of {@code clique}, in one place. */
final class ExitCodes {
  static final int OK = 0;

  /** Could not start: missing set-up (no token, bad URL, no tmux, port taken). */
  static final int NOT_CONFIGURED = 1;

  /** The command line itself was wrong (picocli's own usage errors). */
  static final int USAGE = 2;

  /** Something was asked that does not exist (revoking an unknown token). */
  static final int NOT_FOUND = 3;

  private ExitCodes() {}
}
