package dev.clique.engine.transcript;

/**
 * What pricing a usage needs beyond its sums, which the answers do not show: whether one model gave
 * every answer the sums cover, the largest request (where a vendor bills long prompts at other
 * rates), and what the CLI's records leave open about its cache writes.
 *
 * @param oneModel whether every answer the sums cover came from one model, the usage's own
 * @param largestPrompt the largest whole input (cached or not) of one request, when known
 * @param cacheWriteLongTokens the part of the cache writes made for one hour, when the CLI records
 *     the split (Claude Code's {@code cache_creation}); {@code null} when it does not
 * @param writesApartFromInput whether the CLI records cache writes apart from its input (Claude
 *     Code, pi: Anthropic's usage), so that writes it does not record are in no count; otherwise
 *     (Codex, Copilot, Gemini CLI, Qwen Code) its input holds the whole prompt, and writes it does
 *     not record apart are inside it
 */
public record CostBasis(
    boolean oneModel, Long largestPrompt, Long cacheWriteLongTokens, boolean writesApartFromInput) {

  /** Nothing known: no estimate can rest on it. */
  public static final CostBasis UNKNOWN = new CostBasis(false, null, null, true);

  /** The running basis of one file's tally: the models named and the largest request so far. */
  static final class Tally {
    private final boolean writesApartFromInput;
    private String firstModel;
    private boolean mixed;
    private Long largestPrompt;

    Tally(boolean writesApartFromInput) {
      this.writesApartFromInput = writesApartFromInput;
    }

    /** This basis as it stands, to go on from without changing it. */
    Tally copy() {
      Tally copy = new Tally(writesApartFromInput);
      copy.firstModel = firstModel;
      copy.mixed = mixed;
      copy.largestPrompt = largestPrompt;
      return copy;
    }

    /** An answer by {@code model}, when its record names one. */
    void model(String model) {
      if (model == null) {
        return;
      }
      if (firstModel == null) {
        firstModel = model;
      } else if (!firstModel.equals(model)) {
        mixed = true;
      }
    }

    /** A request whose whole input was {@code tokens}, when its record says. */
    void prompt(Long tokens) {
      if (tokens != null && (largestPrompt == null || tokens > largestPrompt)) {
        largestPrompt = tokens;
      }
    }

    CostBasis basis(Long cacheWriteLongTokens) {
      return new CostBasis(
          firstModel != null && !mixed, largestPrompt, cacheWriteLongTokens, writesApartFromInput);
    }
  }
}
