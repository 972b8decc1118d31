/** clique mcp: the read-only MCP server on stdin/stdout. */
package dev.clique.mcp;
