package dev.clique.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** The trivial JVM program that cold start is measured beside: reads a line, answers one. */
public final class Echo {
  private Echo() {}

  public static void main(String[] args) throws IOException {
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    if (in.readLine() != null) {
      System.out.println("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
      System.out.flush();
    }
  }
}
