/** The five read-only tools, one class each, reaching sessions only through CliqueClient. */
package dev.clique.mcp.tools;
