package dev.clique.engine.token;

import java.util.Set;

/**
 * A token as the store knows it: never the secret itself, only the SHA-256 of it.
 *
 * @param session the session a bound ({@code attention}) token belongs to, or {@code ""}
 * @param lastUsed unix seconds of the last request made with it, 0 when never used
 */
public record Token(
    String id,
    String name,
    String hash,
    Set<Scope> scopes,
    String session,
    long created,
    long lastUsed) {

  public Token {
    scopes = Set.copyOf(scopes);
    session = session == null ? "" : session;
  }

  public boolean allows(Scope scope) {
    return scopes.contains(scope);
  }

  public boolean isBound() {
    return !session.isEmpty();
  }

  Token usedAt(long seconds) {
    return new Token(id, name, hash, scopes, session, created, seconds);
  }
}
