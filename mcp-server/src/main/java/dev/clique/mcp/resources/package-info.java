/**
 * The sessions as MCP resources ({@code clique://sessions} and one session's row, pane and
 * conversation), read-only like the tools, and the subscriptions that hear when they change: one
 * held change-feed request per server, only while something is subscribed.
 */
package dev.clique.mcp.resources;
