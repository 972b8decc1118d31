/**
 * Between the stdio front and the routes: the router (both protocol eras, the handshake, progress,
 * cancellation, the routes by method), the modern era, the server's JSON (without the data-binding
 * mapper), the scrubbing of tokens from whatever leaves the process, and the {@link
 * dev.clique.mcp.protocol.FrameWriter} through which every frame reaches stdout.
 */
package dev.clique.mcp.protocol;
