package dev.clique.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import okhttp3.ConnectionSpec;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * The least that clique mcp's libraries do for a call, and nothing of clique: each request line
 * with an id is answered; a {@code tools/call} by {@code GET /api/state} through OkHttp (plain
 * HTTP, as the client sets it up for an http:// engine) and the answer copied token by token with
 * Jackson's streaming API into the result. Its resident memory is what clique's is measured beside:
 * no MCP server in Java with these libraries can be smaller.
 */
public final class LibraryFloor {
  private LibraryFloor() {}

  public static void main(String[] args) throws IOException {
    JsonFactory json = new JsonFactory();
    OkHttpClient http =
        new OkHttpClient.Builder().connectionSpecs(List.of(ConnectionSpec.CLEARTEXT)).build();
    Request state =
        new Request.Builder()
            .url(System.getenv("CLIQUE_URL") + "/api/state")
            .header("Authorization", "Bearer " + System.getenv("CLIQUE_TOKEN"))
            .build();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      long id = -1;
      boolean call = false;
      try (JsonParser request = json.createParser(line)) {
        request.nextToken();
        while (request.nextToken() == JsonToken.FIELD_NAME) {
          String name = request.currentName();
          request.nextToken();
          if (name.equals("id")) {
            id = request.getLongValue();
          } else if (name.equals("method")) {
            call = request.getText().equals("tools/call");
          } else {
            request.skipChildren();
          }
        }
      }
      if (id < 0) {
        continue;
      }
      ByteArrayOutputStream frame = new ByteArrayOutputStream();
      try (JsonGenerator out = json.createGenerator(frame)) {
        out.writeStartObject();
        out.writeStringField("jsonrpc", "2.0");
        out.writeNumberField("id", id);
        out.writeObjectFieldStart("result");
        if (call) {
          try (Response response = http.newCall(state).execute();
              JsonParser answer = json.createParser(response.body().bytes())) {
            out.writeFieldName("structuredContent");
            answer.nextToken();
            out.copyCurrentStructure(answer);
          }
          out.writeBooleanField("isError", false);
        }
        out.writeEndObject();
        out.writeEndObject();
      }
      frame.write('\n');
      frame.writeTo(System.out);
      System.out.flush();
    }
    http.dispatcher().executorService().shutdown();
    http.connectionPool().evictAll();
  }
}
