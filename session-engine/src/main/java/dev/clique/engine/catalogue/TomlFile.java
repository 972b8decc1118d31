package dev.clique.engine.catalogue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.io.IOException;
import java.util.List;

/**
 * A TOML file of the home's ({@code clis.toml}, {@code prices.toml}, {@code notify.toml}): its
 * name, its lines (to say where a problem is) and its tree.
 */
public record TomlFile(String name, List<String> lines, JsonNode tree) {

  /**
   * Reads {@code text}.
   *
   * @throws IOException when it is not TOML, its message naming the file and the line
   */
  public static TomlFile parse(String name, String text) throws IOException {
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
  public String where(String key) {
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

  /**
   * {@code name line N}, N the line that sets {@code key} in the {@code index}-th (from 0) {@code
   * [[array]]} table, or that table's header when {@code key} is null or set on no line of it.
   */
  public String where(String array, int index, String key) {
    int header = -1;
    int seen = -1;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.startsWith("[")) {
        if (header >= 0) {
          break; // the next table: the key is not in this one
        }
        if (line.startsWith("[[") && line.indexOf("]]") > 2) {
          String name = dotted(line.substring(2, line.indexOf("]]")));
          if (name.equals(array) && ++seen == index) {
            header = i;
          }
        }
      } else if (header >= 0 && key != null && line.indexOf('=') > 0 && !line.startsWith("#")) {
        if (dotted(line.substring(0, line.indexOf('='))).equals(key)) {
          return name + " line " + (i + 1);
        }
      }
    }
    return header < 0 ? name : name + " line " + (header + 1);
  }

  private static String dotted(String key) {
    return key.replace("\"", "").replace("'", "").replaceAll("\\s*\\.\\s*", ".").strip();
  }
}
