/**
 * The machinery behind {@code dev.clique.client}: the one place that builds an HTTP request, the
 * JSON readers that turn engine answers into records, and the failure messages. Not exported; no
 * type from here appears in a public signature.
 */
package dev.clique.client.internal;
