/** Bearer tokens and their scopes, stored as SHA-256 hashes only. */
package dev.clique.engine.token;
