package dev.clique.engine.token;

/**
 * A freshly minted token: the only moment the secret exists outside its owner's hands. Its {@code
 * toString()} never shows the secret.
 */
public final class MintedToken {
  private final Token token;
  private final String secret;

  MintedToken(Token token, String secret) {
    this.token = token;
    this.secret = secret;
  }

  public Token token() {
    return token;
  }

  /** The bearer value, {@code mxp_} followed by 43 base64url characters. Show it once. */
  public String secret() {
    return secret;
  }

  @Override
  public String toString() {
    return "MintedToken[" + token.id() + ", " + token.name() + "]";
  }
}
