/** The stdio front: line framing and the bad-input guard; the only writer of stdout. */
package dev.clique.mcp.stdio;
