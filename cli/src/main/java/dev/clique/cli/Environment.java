package dev.clique.cli;

import java.util.Map;

/** Where commands read environment variables from; tests hand in their own. */
final class Environment {
  private static Map<String, String> variables = System.getenv();

  private Environment() {}

  static Map<String, String> variables() {
    return variables;
  }

  /** The variables with discovery turned off ({@code --no-discover}). */
  static Map<String, String> withoutDiscovery(Map<String, String> env) {
    Map<String, String> copy = new java.util.HashMap<>(env);
    copy.put("CLIQUE_DISCOVER", "off");
    return copy;
  }

  static void use(Map<String, String> replacement) {
    variables = replacement;
  }
}
