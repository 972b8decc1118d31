package dev.clique.mcp.tools;

/** A tool was called with arguments it does not accept; the message names the argument. */
final class ToolArgumentException extends Exception {
  private static final long serialVersionUID = 1L;

  ToolArgumentException(String message) {
    super(message, null, false, false);
  }
}
