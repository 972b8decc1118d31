package dev.clique.engine.hooks;

import java.util.ArrayList;
import java.util.List;

/**
 * A JSON settings file as text, with where each value starts and ends, so that clique can insert
 * into a person's file or take its own part out and leave every other byte as it was. It reads what
 * the CLIs' own settings readers take beyond JSON: comments ({@code //} and {@code /* *}{@code /})
 * and a comma after the last member or element.
 */
final class JsonText {
  /** A value: {@code start} is its first character, {@code end} the one after its last. */
  sealed interface Value permits Obj, Arr, Scalar {
    int start();

    int end();
  }

  /** An object and its members in order. */
  record Obj(int start, int end, List<Member> members) implements Value {
    Member member(String key) {
      Member found = null;
      for (Member m : members) {
        if (m.key().equals(key)) {
          found = m; // the last one wins, as in JSON.parse
        }
      }
      return found;
    }
  }

  /** A member: its key (decoded), where its key starts, its value. */
  record Member(String key, int keyStart, Value value) {}

  record Arr(int start, int end, List<Value> elements) implements Value {}

  /** A string (its decoded text in {@code text}), number, true, false or null. */
  record Scalar(int start, int end, String text) implements Value {}

  private final String text;
  private int at;

  private JsonText(String text) {
    this.text = text;
  }

  /**
   * The value {@code text} holds.
   *
   * @throws IllegalArgumentException saying where (line and column) and why it is not JSON
   */
  static Value parse(String text) {
    JsonText parser = new JsonText(text);
    parser.skip();
    Value value = parser.value();
    parser.skip();
    if (parser.at < text.length()) {
      throw parser.error("more after the end of the JSON value");
    }
    return value;
  }

  private Value value() {
    if (at >= text.length()) {
      throw error("the file ends where a value should be");
    }
    char c = text.charAt(at);
    return switch (c) {
      case '{' -> object();
      case '[' -> array();
      case '"' -> string();
      default -> scalar();
    };
  }

  private Obj object() {
    int start = at++;
    List<Member> members = new ArrayList<>();
    skip();
    while (peek() != '}') {
      if (peek() != '"') {
        throw error("a member's name in double quotes was expected");
      }
      int keyStart = at;
      String key = string().text();
      skip();
      expect(':');
      skip();
      members.add(new Member(key, keyStart, value()));
      skip();
      if (peek() == ',') {
        at++;
        skip();
      } else if (peek() != '}') {
        throw error("',' or '}' was expected");
      }
    }
    at++;
    return new Obj(start, at, List.copyOf(members));
  }

  private Arr array() {
    int start = at++;
    List<Value> elements = new ArrayList<>();
    skip();
    while (peek() != ']') {
      elements.add(value());
      skip();
      if (peek() == ',') {
        at++;
        skip();
      } else if (peek() != ']') {
        throw error("',' or ']' was expected");
      }
    }
    at++;
    return new Arr(start, at, List.copyOf(elements));
  }

  private Scalar string() {
    int start = at++;
    StringBuilder out = new StringBuilder();
    while (true) {
      if (at >= text.length()) {
        throw error("a string is not closed");
      }
      char c = text.charAt(at++);
      if (c == '"') {
        return new Scalar(start, at, out.toString());
      }
      if (c == '\n') {
        throw error("a line break inside a string");
      }
      if (c != '\\') {
        out.append(c);
        continue;
      }
      if (at >= text.length()) {
        throw error("a string is not closed");
      }
      char e = text.charAt(at++);
      switch (e) {
        case '"', '\\', '/' -> out.append(e);
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> {
          if (at + 4 > text.length()) {
            throw error("a \\u escape is cut short");
          }
          try {
            out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
          } catch (NumberFormatException x) {
            throw error("a \\u escape is not four hexadecimal digits");
          }
          at += 4;
        }
        default -> throw error("an unknown escape \\" + e);
      }
    }
  }

  private Scalar scalar() {
    int start = at;
    while (at < text.length() && "{}[],:\"/ \t\r\n".indexOf(text.charAt(at)) < 0) {
      at++;
    }
    String word = text.substring(start, at);
    if (word.equals("true")
        || word.equals("false")
        || word.equals("null")
        || word.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) {
      return new Scalar(start, at, word);
    }
    at = start;
    throw error(word.isEmpty() ? "a value was expected" : "'" + word + "' is no JSON value");
  }

  /** Past white space and comments. */
  private void skip() {
    while (at < text.length()) {
      char c = text.charAt(at);
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\uFEFF') {
        at++;
      } else if (text.startsWith("//", at)) {
        int end = text.indexOf('\n', at);
        at = end < 0 ? text.length() : end + 1;
      } else if (text.startsWith("/*", at)) {
        int end = text.indexOf("*/", at + 2);
        if (end < 0) {
          throw error("a /* comment is not closed");
        }
        at = end + 2;
      } else {
        return;
      }
    }
  }

  private char peek() {
    if (at >= text.length()) {
      throw error("the file ends inside an object or array");
    }
    return text.charAt(at);
  }

  private void expect(char c) {
    if (peek() != c) {
      throw error("'" + c + "' was expected");
    }
    at++;
  }

  private IllegalArgumentException error(String why) {
    int line = 1;
    int column = 1;
    for (int i = 0; i < Math.min(at, text.length()); i++) {
      if (text.charAt(i) == '\n') {
        line++;
        column = 1;
      } else {
        column++;
      }
    }
    return new IllegalArgumentException("line " + line + " column " + column + ": " + why);
  }
}
