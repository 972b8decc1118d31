/**
 * The CLI catalogue ({@code clis.toml}): how each coding CLI is started and recognised; and the
 * models' list prices ({@code prices.toml}) that usage is priced from.
 */
package dev.clique.engine.catalogue;
