/**
 * The read-only Java client of a clique engine: one GET-only HTTP client bound to one token.
 *
 * <p>Start at {@link dev.clique.client.CliqueClient}. Only {@code dev.clique.client} is exported;
 * OkHttp is required transitively because {@code OkHttpClient} appears in the API. Jackson reads
 * the answers and appears in no public signature: a value gives its answer as JSON text.
 */
module dev.clique.client {
  requires transitive okhttp3;
  requires com.fasterxml.jackson.databind;

  exports dev.clique.client;
}
