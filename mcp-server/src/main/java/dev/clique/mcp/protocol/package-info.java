/**
 * Between the stdio front and the MCP SDK: the router (both protocol eras, the handshake, progress,
 * cancellation), the modern era the SDK does not know, the check of structured tool output, the
 * server's JSON (without the data-binding mapper), and the scrubbing of tokens from whatever leaves
 * the process.
 */
package dev.clique.mcp.protocol;
