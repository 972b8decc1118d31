package dev.clique.engine.http;

import dev.clique.engine.token.Scope;
import dev.clique.engine.token.Token;
import dev.clique.engine.token.TokenStore;
import java.net.UnixDomainSocketAddress;
import java.util.EnumSet;
import java.util.Optional;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;

/** Who asks (the operator or a bearer token's holder) and whether their scopes allow it. */
final class Access {
  private static final Token OPERATOR =
      new Token("local", "operator", "", EnumSet.of(Scope.READ, Scope.WRITE), "", 0, 0);

  private final TokenStore tokens;

  Access(TokenStore tokens) {
    this.tokens = tokens;
  }

  /**
   * Who asks: the operator, for a request over the engine's own socket in its home (only the user
   * who owns the home can reach it), else the bearer token's holder, if any.
   */
  Optional<Token> caller(Request request) {
    if (request.getConnectionMetaData().getRemoteSocketAddress()
        instanceof UnixDomainSocketAddress) {
      return Optional.of(OPERATOR);
    }
    return bearer(request).flatMap(tokens::authenticate);
  }

  /** Whether {@code token} is the operator's: a request over the engine's socket. */
  static boolean isOperator(Token token) {
    return token == OPERATOR;
  }

  static void require(Token token, Scope scope) throws ApiError {
    if (token.allows(scope)) {
      return;
    }
    if (scope == Scope.WRITE && token.allows(Scope.READ)) {
      throw new ApiError(403, "this API token is read-only");
    }
    throw new ApiError(403, "forbidden");
  }

  /** Scope {@code write}, or {@code attention} bound to this very session. */
  static void requireAttention(Token token, String id) throws ApiError {
    if (token.allows(Scope.WRITE)) {
      return;
    }
    if (token.allows(Scope.ATTENTION) && token.session().equals(id)) {
      return;
    }
    if (token.allows(Scope.READ)) {
      throw new ApiError(403, "this API token is read-only");
    }
    throw new ApiError(403, "forbidden");
  }

  private static Optional<String> bearer(Request request) {
    String header = request.getHeaders().get(HttpHeader.AUTHORIZATION);
    if (header == null) {
      return Optional.empty();
    }
    String value = header.strip();
    if (value.length() < 7 || !value.substring(0, 7).equalsIgnoreCase("bearer ")) {
      return Optional.empty();
    }
    return Optional.of(value.substring(7).strip());
  }
}
