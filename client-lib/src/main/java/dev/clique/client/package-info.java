/**
 * The public API of the clique client: {@link dev.clique.client.CliqueClient}, its builder, the
 * records it answers with and the one exception it throws.
 *
 * <pre>{@code
 * CliqueClient client = CliqueClient.builder()
 *     .baseUrl("http://127.0.0.1:3200")
 *     .token(System.getenv("CLIQUE_TOKEN"))
 *     .build();
 * for (Session s : client.sessions()) {
 *   System.out.println(s.name() + " " + s.state());
 * }
 * }</pre>
 */
package dev.clique.client;
