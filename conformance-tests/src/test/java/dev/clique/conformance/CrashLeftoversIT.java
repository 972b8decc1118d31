package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What a {@code kill -9} of the engine can leave behind, picked up by the next start: a session of
 * its home running on its socket that no record names is adopted (with a log line), a half-written
 * {@code tokens.json} is swept, and the token of a session that no longer exists stops working.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
class CrashLeftoversIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void theNextStartAdoptsTheUnrecordedSessionSweepsAndRevokes() throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare().start()) {
      String admin = engine.mintToken("crash-admin", false);
      String recorded = engine.createShell(admin, "recorded");
      engine.crash();

      // Launched just before the kill, never recorded: marked as this home's, as the engine marks
      // each session it makes, in the same call.
      String orphan = UUID.randomUUID().toString();
      Tmux.run(
          engine.socket,
          "new-session",
          "-d",
          "-s",
          orphan,
          "-c",
          engine.workdir.toString(),
          "bash",
          "--norc",
          ";",
          "set-option",
          "-t",
          "=" + orphan + ":",
          "@clique-home",
          Files.readString(engine.home.resolve("home-id")).strip());
      // A tokens.json its writer (a pid that cannot be alive) never finished.
      Path leftover = engine.home.resolve(".tokens.json.2147483646.1234.tmp");
      Files.writeString(leftover, "{\"tokens\":[");
      // The token of a session that is gone, minted long ago.
      String stale = "mxp_" + "S".repeat(43);
      plantBoundToken(engine.home.resolve("tokens.json"), "stale01", stale, "gone-session");
      // ...and one as old, of a session that is still there: it keeps working.
      String kept = "mxp_" + "K".repeat(43);
      plantBoundToken(engine.home.resolve("tokens.json"), "kept01", kept, recorded);

      engine.start();
      HttpResponse<String> state = engine.get("/api/state", admin);
      JsonNode adopted = null;
      for (JsonNode session : JSON.readTree(state.body()).path("sessions")) {
        if (session.path("id").asText().equals(orphan)) {
          adopted = session;
        }
      }
      assertThat(adopted).as("the unrecorded session, in " + state.body()).isNotNull();
      assertThat(adopted.path("cli").asText()).isEqualTo("shell");
      assertThat(adopted.path("cwd").asText()).isEqualTo(engine.workdir.toRealPath().toString());
      assertThat(adopted.path("name").asText()).startsWith("adopted-");
      assertThat(state.body()).contains(recorded);
      assertThat(engine.serveStderrOnceItSays("adopted session " + orphan))
          .contains("adopted session " + orphan);

      assertThat(leftover).doesNotExist();
      HttpResponse<String> revoked =
          engine.post("/api/sessions/gone-session/attention", stale, "{\"state\":\"waiting\"}");
      assertThat(revoked.statusCode()).isEqualTo(401);
      HttpResponse<String> stillThere =
          engine.post("/api/sessions/" + recorded + "/attention", kept, "{\"state\":\"clear\"}");
      assertThat(stillThere.statusCode()).as(stillThere.body()).isEqualTo(200);
    }
  }

  private static void plantBoundToken(Path tokens, String id, String secret, String session)
      throws Exception {
    ObjectNode root = (ObjectNode) JSON.readTree(Files.readString(tokens));
    ObjectNode row = root.withArray("tokens").addObject();
    row.put("id", id);
    row.put("name", "hook:gone");
    row.put(
        "hash",
        HexFormat.of()
            .formatHex(
                MessageDigest.getInstance("SHA-256")
                    .digest(secret.getBytes(StandardCharsets.US_ASCII))));
    row.putArray("scopes").add("attention");
    row.put("session", session);
    row.put("created", 1_700_000_000L);
    row.put("last_used", 0);
    Files.writeString(tokens, JSON.writeValueAsString(root));
  }
}
