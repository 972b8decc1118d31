package dev.clique.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStreamReader;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import okhttp3.ConnectionSpec;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;

/**
 * The least that clique mcp's libraries do for a call, and nothing of clique: each request line
 * with an id is answered; a {@code tools/call} by {@code GET /api/state} through OkHttp (plain
 * HTTP, as the client sets it up for an http:// engine) and the answer copied token by token with
 * Jackson's streaming API into the result. Its resident memory is what clique's is measured beside:
 * no MCP server in Java with these libraries can be smaller.
 *
 * <p>With {@code --serve}, the engine's end is inside too, as in {@code clique mcp --embedded}: a
 * Jetty server on loopback, set up as the engine sets up its own, answers every request with an
 * engine's state of no sessions.
 */
public final class LibraryFloor {
  private LibraryFloor() {}

  /** Runs a command on the calls a benchmark makes: the training run of the floor's archive. */
  interface Training {
    void run(List<String> command) throws Exception;
  }

  /**
   * The floor's command (with {@code serve}, its own server inside) with the JVM options {@code
   * flags} and a static class-data archive of the classes it loads, made in {@code dir} as
   * bin/clique makes one for itself: listed in a run that {@code training} drives, then dumped.
   */
  static List<String> command(
      List<String> flags, boolean serve, Path dir, Settings settings, Training training)
      throws Exception {
    List<Class<?>> libraries =
        new ArrayList<>(
            List.of(OkHttpClient.class, okio.Buffer.class, kotlin.Unit.class, JsonFactory.class));
    if (serve) {
      libraries.addAll(
          List.of(
              Server.class,
              HttpHeader.class,
              org.eclipse.jetty.io.EndPoint.class,
              Callback.class,
              org.slf4j.LoggerFactory.class,
              org.slf4j.simple.SimpleLogger.class));
    }
    List<String> classPath = new ArrayList<>(List.of(settings.echoClassPath()));
    for (Class<?> library : libraries) {
      classPath.add(
          Path.of(library.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
    }
    String path = String.join(File.pathSeparator, classPath);
    List<String> java = new ArrayList<>();
    java.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    java.addAll(flags);
    String name = serve ? "library-floor-serving" : "library-floor";
    Path classList = dir.resolve(name + ".classlist");
    Path archive = dir.resolve(name + ".jsa");
    List<String> main = new ArrayList<>(List.of("-cp", path, LibraryFloor.class.getName()));
    if (serve) {
      main.add("--serve");
    }
    List<String> listing = new ArrayList<>(java);
    listing.add("-XX:DumpLoadedClassList=" + classList);
    listing.addAll(main);
    training.run(listing);
    List<String> dump = new ArrayList<>(java);
    dump.addAll(
        List.of(
            "-Xshare:dump",
            "-XX:SharedClassListFile=" + classList,
            "-XX:SharedArchiveFile=" + archive,
            "-cp",
            path));
    Process dumping =
        new ProcessBuilder(dump).redirectErrorStream(true).redirectOutput(Redirect.DISCARD).start();
    if (dumping.waitFor() != 0 || !Files.exists(archive)) {
      throw new IllegalStateException("dumping the library floor's archive failed: " + dump);
    }
    List<String> command = new ArrayList<>(java);
    command.addAll(List.of("-Xshare:on", "-XX:SharedArchiveFile=" + archive));
    command.addAll(main);
    return command;
  }

  public static void main(String[] args) throws Exception {
    boolean serve = args.length > 0 && args[0].equals("--serve");
    String url = serve ? FloorServer.start() : System.getenv("CLIQUE_URL");
    JsonFactory json = new JsonFactory();
    OkHttpClient http =
        new OkHttpClient.Builder().connectionSpecs(List.of(ConnectionSpec.CLEARTEXT)).build();
    Request state =
        new Request.Builder()
            .url(url + "/api/state")
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
    System.exit(0); // the server's threads are daemons, yet its scheduler is not
  }
}
