package dev.clique.engine.token;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.engine.home.AtomicFile;
import dev.clique.engine.home.FileStamp;
import dev.clique.engine.home.HomeLock;
import dev.clique.engine.json.EngineJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Bearer tokens, kept as SHA-256 hashes in {@code tokens.json} (0600, written atomically). The file
 * is re-read when it changes on disk, so a mint or a revoke by {@code clique token} reaches a
 * running engine without a restart. A store without a file keeps its tokens in memory only.
 */
public final class TokenStore {
  public static final String PREFIX = "mxp_";
  private static final int SECRET_BYTES = 32; // 43 base64url characters
  private static final int MAX_NAME = 60;
  private static final long RECHECK_MILLIS = 250;

  private final Path file;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();
  private final ObjectMapper json = EngineJson.mapper();

  private Map<String, Token> byHash = new LinkedHashMap<>();
  private FileStamp loadedStamp = FileStamp.NONE;
  private long lastCheckMillis = Long.MIN_VALUE;

  /** When each token was last used, since the last flush: what the file does not know yet. */
  private Map<String, Long> unflushedUse = new LinkedHashMap<>();

  private TokenStore(Path file, Clock clock) {
    this.file = file;
    this.clock = clock;
  }

  /** A store backed by {@code file}; the file need not exist yet. */
  public static TokenStore open(Path file, Clock clock) {
    TokenStore store = new TokenStore(file, clock);
    try {
      AtomicFile.sweepLeftovers(file); // what a writer killed mid-write left behind
    } catch (IOException e) {
      // a leftover temporary file does no harm but clutter
    }
    store.reloadIfChanged(true);
    return store;
  }

  /** A store that lives in memory only (an engine assembled in a test). */
  public static TokenStore inMemory(Clock clock) {
    return new TokenStore(null, clock);
  }

  /** Mints a token; the secret is returned once and only its hash is kept. */
  public synchronized MintedToken create(String name, Set<Scope> scopes, String session)
      throws IOException {
    String cleanName = name == null ? "" : name.strip();
    if (cleanName.isEmpty()) {
      throw new IllegalArgumentException("a token needs a name");
    }
    if (cleanName.length() > MAX_NAME) {
      throw new IllegalArgumentException("a token name has at most " + MAX_NAME + " characters");
    }
    if (scopes.isEmpty()) {
      throw new IllegalArgumentException("a token needs at least one scope");
    }
    byte[] raw = new byte[SECRET_BYTES];
    random.nextBytes(raw);
    String secret = PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
    Token token =
        new Token(
            newId(),
            cleanName,
            sha256(secret),
            scopes,
            session,
            clock.instant().getEpochSecond(),
            0);
    update(
        tokens -> {
          tokens.put(token.hash(), token);
          return true;
        });
    return new MintedToken(token, secret);
  }

  /** Finds the token a bearer value stands for; empty for anything unknown or malformed. */
  public synchronized Optional<Token> authenticate(String secret) {
    if (secret == null || !secret.startsWith(PREFIX)) {
      return Optional.empty();
    }
    reloadIfChanged(false);
    byte[] presented = sha256Bytes(secret);
    Token found = match(presented);
    if (found == null) {
      // Minted a moment ago by `clique token create`, after the last look at the file: one more
      // look (a stat; the file is read again only if it changed) before the token is refused.
      reloadIfChanged(true);
      found = match(presented);
    }
    if (found == null) {
      return Optional.empty();
    }
    Token used = found.usedAt(clock.instant().getEpochSecond());
    byHash.put(used.hash(), used);
    unflushedUse.put(used.hash(), used.lastUsed());
    return Optional.of(used);
  }

  /**
   * The token whose hash is {@code presented}'s, or null. Every hash is compared in constant time,
   * so timing tells nothing about which is close.
   */
  private Token match(byte[] presented) {
    Token found = null;
    for (Token token : byHash.values()) {
      if (MessageDigest.isEqual(presented, HexFormat.of().parseHex(token.hash()))) {
        found = token;
      }
    }
    return found;
  }

  /** The operator's tokens: session-bound tokens are hidden. */
  public synchronized List<Token> listing() {
    reloadIfChanged(true);
    return byHash.values().stream().filter(t -> !t.isBound()).toList();
  }

  /**
   * Whether a token bound to {@code session} is here: the home whose store this is minted it, so an
   * engine of this home started that session.
   */
  public synchronized boolean holdsSession(String session) {
    reloadIfChanged(true);
    return byHash.values().stream().anyMatch(t -> t.isBound() && t.session().equals(session));
  }

  /** Revokes the token with this id; false when there is none. */
  public synchronized boolean revoke(String id) throws IOException {
    return update(tokens -> tokens.values().removeIf(t -> t.id().equals(id)));
  }

  /** Revokes every token bound to a session; returns how many. */
  public synchronized int revokeSession(String session) throws IOException {
    int[] count = new int[1];
    update(
        tokens -> {
          int before = tokens.size();
          tokens.values().removeIf(t -> t.isBound() && t.session().equals(session));
          count[0] = before - tokens.size();
          return count[0] > 0;
        });
    return count[0];
  }

  /**
   * Revokes the session-bound tokens of sessions that no longer exist (a crash between minting a
   * session's token and recording the session). A token younger than {@code minAgeSeconds} is kept:
   * another engine on the home may be starting its session right now.
   */
  public synchronized int revokeOrphans(Set<String> sessions, long minAgeSeconds)
      throws IOException {
    long cutoff = clock.instant().getEpochSecond() - minAgeSeconds;
    int[] count = new int[1];
    update(
        tokens -> {
          int before = tokens.size();
          tokens
              .values()
              .removeIf(
                  t -> t.isBound() && !sessions.contains(t.session()) && t.created() <= cutoff);
          count[0] = before - tokens.size();
          return count[0] > 0;
        });
    return count[0];
  }

  /**
   * Writes when each token was last used, for {@code clique token list}. The engine calls this now
   * and then rather than writing the file on every request.
   */
  public synchronized void flushUsage() throws IOException {
    if (unflushedUse.isEmpty() || file == null) {
      return;
    }
    Map<String, Long> used = unflushedUse;
    unflushedUse = new LinkedHashMap<>();
    try {
      // Written whenever a used token is still there: the copy update() works on already holds
      // this process's last uses (authenticate() put them there), so comparing against it would
      // never find anything newer.
      update(
          tokens -> {
            boolean present = false;
            for (Map.Entry<String, Long> use : used.entrySet()) {
              Token token = tokens.get(use.getKey());
              if (token != null) {
                present = true;
                if (use.getValue() > token.lastUsed()) {
                  tokens.put(token.hash(), token.usedAt(use.getValue()));
                }
              }
            }
            return present;
          });
    } catch (IOException | RuntimeException e) {
      used.forEach((hash, last) -> unflushedUse.merge(hash, last, Math::max));
      throw e;
    }
  }

  /**
   * Applies a change to the freshest tokens on disk and writes them back, holding a lock file so
   * that {@code clique token} and a running engine never lose each other's changes.
   */
  private boolean update(Change change) throws IOException {
    if (file == null) {
      Map<String, Token> next = new LinkedHashMap<>(byHash);
      boolean changed = change.apply(next);
      byHash = next;
      return changed;
    }
    return HomeLock.around(
        file,
        () -> {
          reloadIfChanged(true);
          Map<String, Token> next = new LinkedHashMap<>(byHash);
          if (!change.apply(next)) {
            return false;
          }
          persist(next);
          return true;
        });
  }

  /** A change to the token map; true when it changed something. */
  @FunctionalInterface
  private interface Change {
    boolean apply(Map<String, Token> tokens);
  }

  private void persist(Map<String, Token> next) throws IOException {
    ObjectNode root = json.createObjectNode();
    ArrayNode list = root.putArray("tokens");
    for (Token token : next.values()) {
      ObjectNode row = list.addObject();
      row.put("id", token.id());
      row.put("name", token.name());
      row.put("hash", token.hash());
      ArrayNode scopes = row.putArray("scopes");
      for (Scope scope : Scope.values()) {
        if (token.allows(scope)) {
          scopes.add(scope.wireName());
        }
      }
      row.put("session", token.session());
      row.put("created", token.created());
      row.put("last_used", token.lastUsed());
    }
    AtomicFile.write(file, json.writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
    loadedStamp = FileStamp.of(file);
    byHash = next;
  }

  private void reloadIfChanged(boolean force) {
    if (file == null) {
      return;
    }
    long now = System.nanoTime() / 1_000_000;
    if (!force && now - lastCheckMillis < RECHECK_MILLIS) {
      return;
    }
    lastCheckMillis = now;
    FileStamp stamp = FileStamp.of(file);
    if (stamp.equals(loadedStamp)) {
      return;
    }
    Optional<byte[]> data = AtomicFile.readWithFallback(file, this::parses);
    Map<String, Token> loaded = new LinkedHashMap<>();
    data.ifPresent(bytes -> parse(bytes).forEach(t -> loaded.put(t.hash(), t)));
    // Keep what this process learned about last use; the file is the truth for what exists.
    for (Map.Entry<String, Token> entry : loaded.entrySet()) {
      Token known = byHash.get(entry.getKey());
      if (known != null && known.lastUsed() > entry.getValue().lastUsed()) {
        entry.setValue(known);
      }
    }
    byHash = loaded;
    loadedStamp = stamp;
  }

  private boolean parses(byte[] data) {
    try {
      return json.readTree(data).path("tokens").isArray();
    } catch (IOException e) {
      return false;
    }
  }

  private List<Token> parse(byte[] data) {
    List<Token> tokens = new ArrayList<>();
    try {
      for (JsonNode row : json.readTree(data).path("tokens")) {
        Set<Scope> scopes = EnumSet.noneOf(Scope.class);
        for (JsonNode scope : row.path("scopes")) {
          Scope.fromWire(scope.asText()).ifPresent(scopes::add);
        }
        String hash = row.path("hash").asText("");
        if (hash.length() != 64 || scopes.isEmpty()) {
          continue;
        }
        tokens.add(
            new Token(
                row.path("id").asText(""),
                row.path("name").asText(""),
                hash,
                scopes,
                row.path("session").asText(""),
                row.path("created").asLong(0),
                row.path("last_used").asLong(0)));
      }
    } catch (IOException | IllegalArgumentException e) {
      // parses() accepted it; a bad row is skipped, never fatal
    }
    return tokens;
  }

  private String newId() {
    byte[] raw = new byte[4];
    random.nextBytes(raw);
    return "tk_" + HexFormat.of().formatHex(raw);
  }

  static String sha256(String secret) {
    return HexFormat.of().formatHex(sha256Bytes(secret));
  }

  private static byte[] sha256Bytes(String secret) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JDK", e);
    }
  }
}
