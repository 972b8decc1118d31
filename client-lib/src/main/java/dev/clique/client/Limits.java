package dev.clique.client;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The usage limits a session's CLI was last told of, as it recorded them: {@link Session#limits()},
 * the row's {@code limits}. Codex records its account's rate-limit windows ({@code primary}, {@code
 * secondary}); they are the account's, so every session of one account tells the same.
 *
 * <pre>{@code
 * session.limits().ifPresent(l -> l.windows().forEach(w ->
 *     System.out.printf("%s: %.0f%% used, resets %s%n",
 *         w.name(), w.usedPercent(), w.resetsAt().map(Instant::toString).orElse("?"))));
 * }</pre>
 *
 * <p>Made by the client as it reads a session; there is no public constructor, so a later version
 * can add what a later engine sends. Two limits are equal when all their values are.
 */
public final class Limits {
  private final List<Window> windows;
  private final Optional<Instant> asOf;
  private final String source;

  Limits(List<Window> windows, Optional<Instant> asOf, String source) {
    this.windows = List.copyOf(windows);
    this.asOf = Objects.requireNonNull(asOf, "asOf");
    this.source = Objects.requireNonNull(source, "source");
  }

  /**
   * Each limit window, in the CLI's order.
   *
   * @return the windows, unmodifiable
   */
  public List<Window> windows() {
    return windows;
  }

  /**
   * The window the CLI gives {@code name}.
   *
   * @param name e.g. {@code "primary"}
   * @return that window, if the CLI told of it
   */
  public Optional<Window> window(String name) {
    return windows.stream().filter(w -> w.name().equals(name)).findFirst();
  }

  /**
   * When the CLI recorded them.
   *
   * @return that time, when said
   */
  public Optional<Instant> asOf() {
    return asOf;
  }

  /**
   * The kind of file the engine read.
   *
   * @return e.g. {@code "codex rollout"}; {@code ""} when not said
   */
  public String source() {
    return source;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Limits that
        && windows.equals(that.windows)
        && asOf.equals(that.asOf)
        && source.equals(that.source);
  }

  @Override
  public int hashCode() {
    return Objects.hash(windows, asOf, source);
  }

  @Override
  public String toString() {
    return "Limits[windows=" + windows + ", asOf=" + asOf.orElse(null) + ", source=" + source + "]";
  }

  /** One limit window: how much of it is used, how long it is, when it starts afresh. */
  public static final class Window {
    private final String name;
    private final double usedPercent;
    private final OptionalLong windowMinutes;
    private final Optional<Instant> resetsAt;

    Window(
        String name, double usedPercent, OptionalLong windowMinutes, Optional<Instant> resetsAt) {
      this.name = Objects.requireNonNull(name, "name");
      this.usedPercent = usedPercent;
      this.windowMinutes = Objects.requireNonNull(windowMinutes, "windowMinutes");
      this.resetsAt = Objects.requireNonNull(resetsAt, "resetsAt");
    }

    /**
     * The CLI's name for the window.
     *
     * @return e.g. {@code "primary"} (Codex: the shorter window) or {@code "secondary"}
     */
    public String name() {
      return name;
    }

    /**
     * How much of the window is used.
     *
     * @return a percentage, 0 to 100
     */
    public double usedPercent() {
      return usedPercent;
    }

    /**
     * How long the window is.
     *
     * @return its minutes, when the CLI says (e.g. 300, 10080)
     */
    public OptionalLong windowMinutes() {
      return windowMinutes;
    }

    /**
     * When the window starts afresh.
     *
     * @return that time, when the CLI says
     */
    public Optional<Instant> resetsAt() {
      return resetsAt;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Window that
          && name.equals(that.name)
          && Double.compare(usedPercent, that.usedPercent) == 0
          && windowMinutes.equals(that.windowMinutes)
          && resetsAt.equals(that.resetsAt);
    }

    @Override
    public int hashCode() {
      return Objects.hash(name, usedPercent, windowMinutes, resetsAt);
    }

    @Override
    public String toString() {
      return "Window[name="
          + name
          + ", usedPercent="
          + usedPercent
          + ", windowMinutes="
          + (windowMinutes.isPresent() ? windowMinutes.getAsLong() : "-")
          + ", resetsAt="
          + resetsAt.orElse(null)
          + "]";
    }
  }
}
