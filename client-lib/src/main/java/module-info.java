/**
 * The read-only Java client of a clique engine: one GET-only HTTP client bound to one token.
 *
 * <p>Start at {@link dev.clique.client.CliqueClient}. Only {@code dev.clique.client} is exported;
 * OkHttp and Jackson are required transitively because {@code OkHttpClient} and {@code JsonNode}
 * appear in the API.
 */
module dev.clique.client {
  requires transitive okhttp3;
  requires transitive com.fasterxml.jackson.databind;

  exports dev.clique.client;
}
