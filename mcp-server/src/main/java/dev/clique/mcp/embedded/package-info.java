/** The embedded engine bootstrap: the only code here that touches session-engine types. */
package dev.clique.mcp.embedded;
