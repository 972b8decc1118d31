package dev.clique.mcp.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Start-up, memory and per-call figures of {@code clique mcp} as a user runs it (through {@code
 * bin/clique}), against an engine of its own serving 50 sessions and 40-line panes. A benchmark,
 * not a test: it prints figures beside their targets and fails nothing.
 *
 * <pre>
 * mvn -o -q dependency:build-classpath -pl mcp-server -Dmdep.outputFile=target/cp.txt
 * java -cp mcp-server/target/test-classes:mcp-server/target/classes:$(cat mcp-server/target/cp.txt) \
 *     dev.clique.mcp.bench.McpBenchmark bin/clique
 * </pre>
 */
public final class McpBenchmark {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
          + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"0\"}}}";

  /** The JVM options the launcher gives {@code clique mcp}, for the "hello" beside it. */
  private static final List<String> LAUNCHER_FLAGS =
      List.of(
          "-Xlog:disable",
          "-Xlog:all=warning:stderr",
          "-XX:+UseSerialGC",
          "-Xss512k",
          "-XX:-UsePerfData",
          "-XX:TieredStopAtLevel=1",
          "-Xms16m",
          "-Xmx96m",
          "-XX:ReservedCodeCacheSize=32m",
          "-XX:MaxMetaspaceSize=96m",
          "-XX:CICompilerCount=1");

  private McpBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path launcher = Path.of(args.length > 0 ? args[0] : "bin/clique").toAbsolutePath();
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 10;
    try (Engine engine = Engine.start(50, 40)) {
      Map<String, String> env = new HashMap<>(System.getenv());
      env.put("CLIQUE_URL", engine.url());
      env.put("CLIQUE_TOKEN", "mxp_" + "b".repeat(43));
      awaitArchive(launcher, env);
      if (runs > 0) {
        coldStart(launcher, env, runs);
      }
      steadyState(launcher, env);
    }
  }

  /** Lets the launcher's background training make its archive before anything is timed. */
  private static void awaitArchive(Path launcher, Map<String, String> env) throws Exception {
    Path target = launcher.getParent().getParent().resolve("cli/target");
    Path jar = target.resolve("clique.jar");
    // The launcher names an archive after the jar it was made for: its mtime and size.
    String stamp = Files.getLastModifiedTime(jar).toMillis() / 1000 + "" + Files.size(jar);
    Path archives = target.resolve("cds");
    for (int i = 0; i < 60; i++) {
      firstAnswerMillis(List.of(launcher.toString(), "mcp"), env);
      try (var files = Files.list(archives)) {
        if (files.anyMatch(
            f ->
                f.getFileName().toString().startsWith("clique-" + stamp + "-")
                    && f.toString().endsWith(".size"))) {
          System.out.println("class-data archive: present in " + archives);
          return;
        }
      } catch (IOException e) {
        // not made yet
      }
      Thread.sleep(1000);
    }
    System.out.println("class-data archive: NOT made within a minute; figures are without it");
  }

  private static void coldStart(Path launcher, Map<String, String> env, int runs) throws Exception {
    List<String> hello = new ArrayList<>();
    hello.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    hello.addAll(LAUNCHER_FLAGS);
    Path classes =
        Path.of(TrivialJvm.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    hello.addAll(List.of("-cp", classes.toString(), TrivialJvm.class.getName()));
    Map<String, String> withoutCds = new HashMap<>(env);
    withoutCds.put("CLIQUE_CDS", "0");
    List<Double> helloMs = new ArrayList<>();
    List<Double> cdsMs = new ArrayList<>();
    List<Double> plainMs = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      helloMs.add(firstAnswerMillis(hello, env));
      cdsMs.add(firstAnswerMillis(List.of(launcher.toString(), "mcp"), env));
      plainMs.add(firstAnswerMillis(List.of(launcher.toString(), "mcp"), withoutCds));
    }
    System.out.printf(
        Locale.ROOT,
        "cold start, spawn -> initialize answer, median of %d:%n"
            + "  trivial JVM hello (same flags)   %6.0f ms%n"
            + "  bin/clique mcp, CLIQUE_CDS=0     %6.0f ms%n"
            + "  bin/clique mcp (class-data)      %6.0f ms   target <= 200 ms: %s%n",
        runs,
        median(helloMs),
        median(plainMs),
        median(cdsMs),
        median(cdsMs) <= 200 ? "met" : "NOT met");
  }

  private static double firstAnswerMillis(List<String> command, Map<String, String> env)
      throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.environment().putAll(env);
    long start = System.nanoTime();
    Process process = builder.start();
    OutputStream in = process.getOutputStream();
    in.write((INITIALIZE + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine();
    double millis = (System.nanoTime() - start) / 1e6;
    if (line == null || !line.contains("\"result\"")) {
      throw new IllegalStateException("no answer to initialize from " + command + ": " + line);
    }
    in.close();
    process.waitFor();
    return millis;
  }

  private static void steadyState(Path launcher, Map<String, String> env) throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(launcher.toString(), "mcp")
            .redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.environment().putAll(env);
    Process process = builder.start();
    Session session = new Session(process);
    session.call("initialize-again", INITIALIZE);
    String sessionId = Engine.id(7);
    String list = toolCall("list_sessions", Map.of());
    String peek = toolCall("preview_pane", Map.of("id", sessionId, "lines", 40));
    List<String> others =
        List.of(
            toolCall("get_session", Map.of("id", sessionId)),
            toolCall("wait", Map.of("id", sessionId, "timeout", 0)),
            toolCall("conversation", Map.of("id", sessionId)));
    int calls = 0;
    for (int i = 0; i < 100; i++, calls++) {
      session.call("warm", i % 2 == 0 ? list : others.get(i % 3));
    }
    List<Double> listMs = new ArrayList<>();
    for (int i = 0; i < 400; i++, calls++) {
      listMs.add(session.call("list_sessions", list));
    }
    List<Double> peekMs = new ArrayList<>();
    for (int i = 0; i < 400; i++, calls++) {
      peekMs.add(session.call("preview_pane", peek));
    }
    for (int i = 0; i < 100; i++, calls++) {
      session.call("other", others.get(i % 3));
    }
    List<Double> pingMs = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      pingMs.add(session.call("ping", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"));
    }
    Map<String, String> status = procStatus(process.pid());
    process.getOutputStream().close();
    process.waitFor();
    double rssMib = kib(status.get("VmRSS")) / 1024.0;
    System.out.printf(
        Locale.ROOT,
        "list_sessions, 50 sessions, end to end, median of 400:  %.2f ms   target <= 2 ms: %s%n"
            + "preview_pane, 40 lines, end to end, median of 400:   %.2f ms   target <= 3 ms: %s%n"
            + "RSS after %d calls (VmRSS): %.1f MiB (peak VmHWM %.1f MiB)   target <= 64 MiB: %s%n"
            + "for scale: ping over the same stdio, median of 400: %.2f ms;"
            + " GET /api/state from this JVM, median of 400: %.2f ms%n",
        median(listMs),
        median(listMs) <= 2 ? "met" : "NOT met",
        median(peekMs),
        median(peekMs) <= 3 ? "met" : "NOT met",
        calls,
        rssMib,
        kib(status.get("VmHWM")) / 1024.0,
        rssMib <= 64 ? "met" : "NOT met",
        median(pingMs),
        engineAlone(env.get("CLIQUE_URL")));
  }

  /** The engine's own share: the same GET, straight from this JVM, on a kept-alive connection. */
  private static double engineAlone(String url) throws Exception {
    java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
    java.net.http.HttpRequest get =
        java.net.http.HttpRequest.newBuilder(java.net.URI.create(url + "/api/state")).build();
    List<Double> millis = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      long start = System.nanoTime();
      http.send(get, java.net.http.HttpResponse.BodyHandlers.ofByteArray());
      if (i >= 100) {
        millis.add((System.nanoTime() - start) / 1e6);
      }
    }
    return median(millis);
  }

  private static String toolCall(String name, Map<String, Object> arguments) throws IOException {
    ObjectNode message = JSON.createObjectNode();
    message.put("jsonrpc", "2.0");
    message.put("id", 1);
    message.put("method", "tools/call");
    message.putObject("params").put("name", name).set("arguments", JSON.valueToTree(arguments));
    return JSON.writeValueAsString(message);
  }

  private static Map<String, String> procStatus(long pid) throws IOException {
    Map<String, String> status = new HashMap<>();
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      int colon = line.indexOf(':');
      if (colon > 0) {
        status.put(line.substring(0, colon), line.substring(colon + 1).strip());
      }
    }
    return status;
  }

  private static double kib(String value) {
    return value == null ? Double.NaN : Double.parseDouble(value.replace("kB", "").strip());
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  /** One {@code clique mcp}: a request written, its answer read, the time between. */
  private static final class Session {
    private final OutputStream in;
    private final BufferedReader out;

    Session(Process process) {
      this.in = process.getOutputStream();
      this.out =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    double call(String what, String request) throws IOException {
      long start = System.nanoTime();
      in.write((request + "\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
      String answer = out.readLine();
      double millis = (System.nanoTime() - start) / 1e6;
      if (answer == null || answer.contains("\"isError\":true") || answer.contains("\"error\"")) {
        throw new IllegalStateException(what + " failed: " + answer);
      }
      return millis;
    }
  }

  /**
   * An engine of the benchmark's own: N sessions shaped like the contract's, panes of L lines. It
   * answers from bytes made in advance, one write per answer, on kept-alive connections, so that
   * what is timed is clique rather than an HTTP server.
   */
  private static final class Engine implements AutoCloseable {
    private final ServerSocket server;
    private final Map<String, byte[]> answers = new HashMap<>();

    private Engine(int sessions, int lines) throws IOException {
      Path contract =
          Path.of("contract").toFile().isDirectory()
              ? Path.of("contract")
              : Path.of("..", "contract");
      JsonNode state = JSON.readTree(contract.resolve("state.json").toFile());
      ObjectNode body = state.deepCopy();
      ArrayNode rows = body.putArray("sessions");
      for (int i = 0; i < sessions; i++) {
        ObjectNode row = state.get("sessions").get(i % 2).deepCopy();
        row.put("id", id(i));
        row.put("name", "session " + i);
        rows.add(row);
      }
      answers.put("/api/state", http(200, JSON.writeValueAsBytes(body)));
      JsonNode sample = JSON.readTree(contract.resolve("peek.json").toFile());
      ObjectNode pane = sample.deepCopy();
      ArrayNode paneLines = pane.putArray("lines");
      for (int i = 0; i < lines; i++) {
        paneLines.add(sample.get("lines").get(i % sample.get("lines").size()).asText());
      }
      answers.put("peek", http(200, JSON.writeValueAsBytes(pane)));
      answers.put("wait", http(200, Files.readAllBytes(contract.resolve("wait-matched.json"))));
      answers.put("transcript", http(200, Files.readAllBytes(contract.resolve("transcript.json"))));
      answers.put(
          "404", http(404, "{\"error\": \"no such session\"}".getBytes(StandardCharsets.UTF_8)));
      server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      Thread accepting = new Thread(this::accept, "bench-engine");
      accepting.setDaemon(true);
      accepting.start();
    }

    static Engine start(int sessions, int lines) throws IOException {
      return new Engine(sessions, lines);
    }

    static String id(int i) {
      return String.format(Locale.ROOT, "00000000-0000-4000-8000-%012d", i);
    }

    String url() {
      return "http://127.0.0.1:" + server.getLocalPort();
    }

    private static byte[] http(int status, byte[] body) {
      byte[] head =
          ("HTTP/1.1 "
                  + status
                  + (status == 200 ? " OK" : " Not Found")
                  + "\r\nContent-Type: application/json\r\nContent-Length: "
                  + body.length
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII);
      byte[] all = Arrays.copyOf(head, head.length + body.length);
      System.arraycopy(body, 0, all, head.length, body.length);
      return all;
    }

    private void accept() {
      while (!server.isClosed()) {
        try {
          Socket socket = server.accept();
          socket.setTcpNoDelay(true);
          Thread serving = new Thread(() -> serve(socket), "bench-engine-connection");
          serving.setDaemon(true);
          serving.start();
        } catch (IOException e) {
          return;
        }
      }
    }

    /** Reads each request up to its blank line (a GET has no body) and writes its answer. */
    private void serve(Socket socket) {
      try (socket) {
        BufferedInputStream in = new BufferedInputStream(socket.getInputStream());
        OutputStream out = socket.getOutputStream();
        StringBuilder line = new StringBuilder();
        String path = null;
        int c;
        while ((c = in.read()) >= 0) {
          if (c != '\n') {
            if (c != '\r') {
              line.append((char) c);
            }
            continue;
          }
          if (path == null) {
            String[] request = line.toString().split(" ");
            String target = request.length > 1 ? request[1] : "/";
            int query = target.indexOf('?');
            path = query < 0 ? target : target.substring(0, query);
          } else if (line.length() == 0) {
            String route = path.substring(path.lastIndexOf('/') + 1);
            byte[] answer = answers.getOrDefault(path, answers.get(route));
            out.write(answer == null ? answers.get("404") : answer);
            out.flush();
            path = null;
          }
          line.setLength(0);
        }
      } catch (IOException e) {
        // the client closed the connection
      }
    }

    @Override
    public void close() throws IOException {
      server.close();
    }
  }
}
