package dev.clique.mcp.protocol;

import java.util.List;

/**
 * The MCP revisions this server speaks. The {@code initialize} era answers a version it knows with
 * itself and any other with the newest it knows; the modern era names its version on every request
 * instead ({@link ModernEra}).
 */
public final class ProtocolVersions {
  /** The revisions of the {@code initialize} handshake, oldest first. */
  public static final List<String> INITIALIZE_ERA =
      List.of("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25");

  /** The revision without a handshake: the version travels in each request's {@code _meta}. */
  public static final String MODERN = "2026-07-28";

  /** Every revision, newest first, as {@code server/discover} and {@code -32022} list them. */
  public static final List<String> SUPPORTED =
      List.of(MODERN, "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");

  private ProtocolVersions() {}

  /** The answer to an {@code initialize} asking for {@code requested}: itself, or the newest. */
  public static String negotiate(String requested) {
    return INITIALIZE_ERA.contains(requested)
        ? requested
        : INITIALIZE_ERA.get(INITIALIZE_ERA.size() - 1);
  }
}
