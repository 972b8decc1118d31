/**
 * The stdio front: line framing and the bad-input guard. It hands each well-formed message to the
 * protocol's {@link dev.clique.mcp.protocol.MessageHandler} and answers the rest itself, through
 * the one {@link dev.clique.mcp.protocol.FrameWriter}: the front depends on the protocol, never the
 * other way.
 */
package dev.clique.mcp.stdio;
