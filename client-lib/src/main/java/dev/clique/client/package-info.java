/**
 * The public API of the clique client: {@link dev.clique.client.CliqueClient}, its builder, the
 * values it answers with (final classes a later version can add fields to; {@code fromJson} makes
 * one from an answer's text) and the one exception it throws.
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
