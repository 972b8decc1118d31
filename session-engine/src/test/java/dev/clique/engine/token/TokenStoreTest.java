package dev.clique.engine.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clique.engine.json.EngineJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenStoreTest {
  @TempDir Path dir;

  private TokenStore open() {
    return TokenStore.open(dir.resolve("tokens.json"), Clock.systemUTC());
  }

  @Test
  void aMintedTokenHasTheDocumentedShapeAndOnlyItsHashIsStored() throws Exception {
    MintedToken minted = open().create("ci", EnumSet.of(Scope.READ), "");
    assertThat(minted.secret()).matches("mxp_[A-Za-z0-9_-]{43}");
    assertThat(minted.token().id()).matches("tk_[0-9a-f]{8}");
    String file = Files.readString(dir.resolve("tokens.json"));
    assertThat(file).doesNotContain(minted.secret()).contains(TokenStore.sha256(minted.secret()));
    assertThat(minted.toString()).doesNotContain(minted.secret());
    assertThat(
            PosixFilePermissions.toString(
                Files.getPosixFilePermissions(dir.resolve("tokens.json"))))
        .isEqualTo("rw-------");
  }

  @Test
  void aTokenAuthenticatesWithItsScopesAndAnUnknownOneDoesNot() throws Exception {
    TokenStore store = open();
    MintedToken reader = store.create("reader", EnumSet.of(Scope.READ), "");
    Token found = store.authenticate(reader.secret()).orElseThrow();
    assertThat(found.allows(Scope.READ)).isTrue();
    assertThat(found.allows(Scope.WRITE)).isFalse();
    assertThat(store.authenticate("mxp_" + "A".repeat(43))).isEmpty();
    assertThat(store.authenticate("not-a-token")).isEmpty();
    assertThat(store.authenticate(null)).isEmpty();
  }

  @Test
  void aTokenMintedByAnotherProcessAuthenticatesAtOnceEvenRightAfterALookAtTheFile()
      throws Exception {
    TokenStore engine = open();
    TokenStore cli = open();
    MintedToken first = cli.create("first", EnumSet.of(Scope.READ), "");
    assertThat(engine.authenticate(first.secret())).isPresent(); // the engine looked just now
    MintedToken minted = cli.create("at once", EnumSet.of(Scope.READ), "");
    assertThat(engine.authenticate(minted.secret())).isPresent();
    assertThat(engine.authenticate(TokenStore.PREFIX + "x".repeat(43))).isEmpty();
  }

  @Test
  void aMintOrRevokeByAnotherProcessReachesARunningStore() throws Exception {
    TokenStore engine = open();
    TokenStore cli = open();
    MintedToken minted = cli.create("late", EnumSet.of(Scope.READ), "");
    Thread.sleep(300); // the store re-checks the file at most every 250 ms
    assertThat(engine.authenticate(minted.secret())).isPresent();
    cli.revoke(minted.token().id());
    Thread.sleep(300);
    assertThat(engine.authenticate(minted.secret())).isEmpty();
  }

  @Test
  void namesAreTrimmedAndBounded() throws Exception {
    TokenStore store = open();
    assertThat(store.create("  spaced  ", EnumSet.of(Scope.READ), "").token().name())
        .isEqualTo("spaced");
    assertThatThrownBy(() -> store.create("x".repeat(61), EnumSet.of(Scope.READ), ""))
        .hasMessageContaining("60");
    assertThatThrownBy(() -> store.create("  ", EnumSet.of(Scope.READ), ""))
        .hasMessageContaining("name");
  }

  @Test
  void sessionBoundTokensAreHiddenAndRevokedWithTheirSession() throws Exception {
    TokenStore store = open();
    MintedToken operator = store.create("operator", EnumSet.of(Scope.READ, Scope.WRITE), "");
    MintedToken bound = store.create("hook:abc", Set.of(Scope.ATTENTION), "sess-1");
    assertThat(store.listing()).extracting(Token::id).containsExactly(operator.token().id());
    assertThat(store.revokeSession("sess-1")).isEqualTo(1);
    assertThat(store.authenticate(bound.secret())).isEmpty();
    assertThat(store.revokeSession("nope")).isZero();
    assertThat(store.authenticate(operator.secret())).isPresent();
  }

  @Test
  void anInMemoryStoreWritesNoFile() throws Exception {
    TokenStore store = TokenStore.inMemory(Clock.systemUTC());
    MintedToken minted = store.create("embedded", EnumSet.of(Scope.READ), "");
    assertThat(store.authenticate(minted.secret())).isPresent();
    try (var entries = Files.list(dir)) {
      assertThat(entries).isEmpty();
    }
  }

  @Test
  void aCorruptTokensFileIsNotFatal() throws Exception {
    Files.writeString(dir.resolve("tokens.json"), "{not json");
    TokenStore store = open();
    assertThat(store.listing()).isEmpty();
    MintedToken minted = store.create("after", EnumSet.of(Scope.READ), "");
    assertThat(store.authenticate(minted.secret())).isPresent();
  }

  @Test
  void aUseIsWrittenToTheFileAtTheNextFlushWhileTheStoreRuns() throws Exception {
    Instant minted = Instant.parse("2026-01-01T00:00:00Z");
    TokenStore engine =
        TokenStore.open(dir.resolve("tokens.json"), Clock.fixed(minted, ZoneOffset.UTC));
    MintedToken token = engine.create("mcp", EnumSet.of(Scope.READ), "");
    engine.flushUsage(); // nothing used yet: nothing to write
    assertThat(lastUsedOnDisk()).isZero();

    TokenStore later =
        TokenStore.open(
            dir.resolve("tokens.json"), Clock.fixed(minted.plusSeconds(90), ZoneOffset.UTC));
    assertThat(later.authenticate(token.secret())).isPresent();
    later.flushUsage(); // what the engine does every 30 s

    assertThat(lastUsedOnDisk()).isEqualTo(minted.plusSeconds(90).getEpochSecond());
    assertThat(open().listing().get(0).lastUsed())
        .isEqualTo(minted.plusSeconds(90).getEpochSecond());
  }

  private long lastUsedOnDisk() throws Exception {
    return EngineJson.mapper()
        .readTree(Files.readString(dir.resolve("tokens.json")))
        .path("tokens")
        .get(0)
        .path("last_used")
        .asLong(-1);
  }
}
