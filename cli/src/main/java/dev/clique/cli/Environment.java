package dev.clique.cli;

import java.util.Map;

/** Where commands read environment variables from; tests hand in their own. */
final class Environment {
  private static Map<String, String> variables = System.getenv();

  private Environment() {}

  static Map<String, String> variables() {
    return variables;
  }

  static void use(Map<String, String> replacement) {
    variables = replacement;
  }
}
