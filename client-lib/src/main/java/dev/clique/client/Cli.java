package dev.clique.client;

import java.util.Objects;

/**
 * One entry of the engine's CLI catalogue ({@code clis} in {@code GET /api/state}).
 *
 * <p>The CLI's permission modes and anything else the engine sends about it are in {@link #json()}.
 * Made by the client as it reads a state; there is no public constructor, so a later version can
 * add what a later engine sends. Two entries are equal when the engine sent the same for them.
 */
public final class Cli {
  private final String id;
  private final String label;
  private final boolean installed;
  private final boolean transcript;
  private final String json;

  Cli(String id, String label, boolean installed, boolean transcript, String json) {
    this.id = Objects.requireNonNull(id, "id");
    this.label = Objects.requireNonNull(label, "label");
    this.installed = installed;
    this.transcript = transcript;
    this.json = Objects.requireNonNull(json, "json");
  }

  /**
   * The catalogue id.
   *
   * @return e.g. {@code claude}
   */
  public String id() {
    return id;
  }

  /**
   * The display name.
   *
   * @return e.g. {@code Claude Code}
   */
  public String label() {
    return label;
  }

  /**
   * Whether the CLI is installed on the engine's machine.
   *
   * @return {@code true} when it is
   */
  public boolean installed() {
    return installed;
  }

  /**
   * Whether the engine can read this CLI's conversations.
   *
   * @return {@code true} when it can
   */
  public boolean transcript() {
    return transcript;
  }

  /**
   * The JSON text the engine sent for this entry, exactly as it came (white space, key order and
   * keys this client does not know included): what to pass on to show a caller what the engine
   * said, or to read with a JSON library of one's own.
   *
   * @return the entry's JSON text, one object
   */
  public String json() {
    return json;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Cli that && json.equals(that.json);
  }

  @Override
  public int hashCode() {
    return json.hashCode();
  }

  @Override
  public String toString() {
    return "Cli[id="
        + id
        + ", label="
        + label
        + ", installed="
        + installed
        + ", transcript="
        + transcript
        + "]";
  }
}
