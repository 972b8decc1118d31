package dev.clique.engine.catalogue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.io.IOException;
import java.util.List;

/**
 * A TOML file of the catalogue's ({@code clis.toml}, {@code prices.toml}): its name, its lines (to
 * say where a problem is) and its tree.
 */
record TomlFile(String name, List<String> lines, JsonNode tree) {

  /**
   * Reads {@code text}.
   *
   * @throws IOException when it is not TOML, its message naming the file and the line
   */
  static TomlFile parse(String name, String text) throws IOException {
    try {
      return new TomlFile(name, text.lines().toList(), new TomlMapper().readTree(text));
    } catch (JsonProcessingException e) {
      int line = e.getLocation() == null ? -1 : e.getLocation().getLineNr();
      throw new IOException(
          (line > 0 ? name + " line " + line : name) + ": " + e.getOriginalMessage(), e);
    }
  }

  /**
   * {@code name line N}, N the line that sets the dotted {@code key} ({@code cli.claude.waiting}),
   * under a {@code [table]} header or dotted; just the name when no line does.
   */
  String where(String key) {
    String table = "";
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.startsWith("[") && !line.startsWith("[[")) {
        int end = line.indexOf(']');
        table = end < 0 ? "" : dotted(line.substring(1, end));
        if (table.equals(key)) {
          return name + " line " + (i + 1);
        }
      } else if (line.indexOf('=') > 0 && !line.startsWith("#")) {
        String set = dotted(line.substring(0, line.indexOf('=')));
        if ((table.isEmpty() ? set : table + "." + set).equals(key)) {
          return name + " line " + (i + 1);
        }
      }
    }
    return name;
  }

  private static String dotted(String key) {
    return key.replace("\"", "").replace("'", "").replaceAll("\\s*\\.\\s*", ".").strip();
  }
}
