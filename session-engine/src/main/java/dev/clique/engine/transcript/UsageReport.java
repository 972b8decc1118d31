package dev.clique.engine.transcript;

/**
 * What a session's CLI recorded of its use: its {@link Usage} and its {@link Limits}, each {@code
 * null} when the CLI records none (a shell, a CLI that has not written its file yet, a CLI that is
 * told no limits).
 */
public record UsageReport(Usage usage, Limits limits) {

  /** Nothing recorded. */
  public static final UsageReport NONE = new UsageReport(null, null);
}
