package dev.clique.mcp.resources;

/** A URI that names no resource of this server, or a session the engine does not have. */
final class UnknownResource extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String uri;

  UnknownResource(String uri, String why) {
    super("Resource not found: " + uri + " (" + why + ")", null, false, false);
    this.uri = uri;
  }

  String uri() {
    return uri;
  }
}
