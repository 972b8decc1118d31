/**
 * The five read-only tools, one class each, reaching sessions only through CliqueClient, and the
 * routes that list and call them.
 */
package dev.clique.mcp.tools;
