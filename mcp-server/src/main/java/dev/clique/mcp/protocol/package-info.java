/**
 * Between the stdio front and the MCP SDK: the router (both protocol eras, the handshake, progress,
 * cancellation), the modern era the SDK does not know, the check of structured tool output, the
 * server's JSON (without the data-binding mapper), the scrubbing of tokens from whatever leaves the
 * process, and the {@link dev.clique.mcp.protocol.FrameWriter} through which every frame reaches
 * stdout.
 */
package dev.clique.mcp.protocol;
