package dev.clique.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * One entry of the engine's CLI catalogue ({@code clis} in {@code GET /api/state}).
 *
 * <p>The CLI's permission modes and anything else the engine sends about it are in {@link #json()}.
 *
 * @param id the catalogue id, e.g. {@code claude}
 * @param label the display name, e.g. {@code Claude Code}
 * @param installed whether the CLI is installed on the engine's machine
 * @param transcript whether the engine can read this CLI's conversations
 * @param json the entry exactly as the engine sent it
 */
public record Cli(String id, String label, boolean installed, boolean transcript, JsonNode json) {

  /**
   * Checks that no component is {@code null} and keeps a private copy of {@code json}.
   *
   * @param id the catalogue id, e.g. {@code claude}
   * @param label the display name, e.g. {@code Claude Code}
   * @param installed whether the CLI is installed on the engine's machine
   * @param transcript whether the engine can read this CLI's conversations
   * @param json the entry exactly as the engine sent it
   * @throws NullPointerException if a component is {@code null}
   */
  public Cli {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(label, "label");
    json = Objects.requireNonNull(json, "json").deepCopy();
  }

  /**
   * The entry exactly as the engine sent it, including keys this client does not know.
   *
   * @return a copy of the raw JSON object (changing it changes nothing here)
   */
  @Override
  public JsonNode json() {
    return json.deepCopy();
  }
}
