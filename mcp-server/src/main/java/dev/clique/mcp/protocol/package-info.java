/** JSON-RPC and MCP protocol handling between the stdio front and the MCP SDK. */
package dev.clique.mcp.protocol;
