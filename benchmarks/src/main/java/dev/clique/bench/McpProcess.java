package dev.clique.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** A spawned process spoken to one JSON-RPC line at a time, as an MCP client does. */
final class McpProcess implements AutoCloseable {
  private final Process process;
  private final OutputStream in;
  private final BufferedReader out;
  private int nextId = 1;

  private McpProcess(Process process) {
    this.process = process;
    this.in = process.getOutputStream();
    this.out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
  }

  static McpProcess start(List<String> command, Map<String, String> env) throws IOException {
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.environment().clear();
    builder.environment().putAll(env);
    return new McpProcess(builder.start());
  }

  static String initialize(int id) {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + id
        + ",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
        + "\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"0\"}}}";
  }

  /** Sends a line and returns the next line of stdout. */
  String roundTrip(String line) throws IOException {
    in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
    String answer = out.readLine();
    if (answer == null) {
      throw new IOException("the process closed its stdout (exit " + exitCode() + ")");
    }
    return answer;
  }

  String callTool(String name, String argumentsJson) throws IOException {
    int id = ++nextId;
    return roundTrip(
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + id
            + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
            + name
            + "\",\"arguments\":"
            + argumentsJson
            + "}}");
  }

  /** Waits for the exit; its code, or -1 when it is still running after {@code timeout}. */
  int awaitExit(long timeout, TimeUnit unit) throws InterruptedException {
    return process.waitFor(timeout, unit) ? process.exitValue() : -1;
  }

  long pid() {
    return process.pid();
  }

  private String exitCode() {
    return process.isAlive() ? "still running" : Integer.toString(process.exitValue());
  }

  @Override
  public void close() {
    try {
      in.close();
    } catch (IOException e) {
      // already gone
    }
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
