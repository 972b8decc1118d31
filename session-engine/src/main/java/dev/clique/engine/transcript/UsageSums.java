package dev.clique.engine.transcript;

/**
 * The running sums of one file's usage records, as {@link Usage} counts them, with what the sums'
 * pricing needs ({@link CostBasis}) and the records left out ({@link RecordsLeftOut}). A tally
 * tells it each answer it counts, and its counts once checked ({@link Counts}); what a CLI calls
 * each count, and what its input holds, stays the tally's.
 */
final class UsageSums {
  private final TokenCount input = new TokenCount();
  private final TokenCount output = new TokenCount();
  private final TokenCount cacheRead = new TokenCount();
  private final TokenCount cacheWrite = new TokenCount();
  private final TokenCount reasoning = new TokenCount();
  private final TokenCount cacheWriteLong = new TokenCount();
  private final CostBasis.Tally basis;
  private long answers;
  private long sideAnswers;
  private String model;

  /** The model of the last side answer: the model of a file that holds no other. */
  private String sideModel;

  private Long context;
  private Long window;
  private RecordsLeftOut leftOut = RecordsLeftOut.NONE;

  /**
   * @param writesApartFromInput whether the CLI records cache writes apart from its input ({@link
   *     CostBasis#writesApartFromInput})
   */
  UsageSums(boolean writesApartFromInput) {
    this.basis = new CostBasis.Tally(writesApartFromInput);
  }

  private UsageSums(UsageSums sums) {
    input.add(sums.input);
    output.add(sums.output);
    cacheRead.add(sums.cacheRead);
    cacheWrite.add(sums.cacheWrite);
    reasoning.add(sums.reasoning);
    cacheWriteLong.add(sums.cacheWriteLong);
    basis = sums.basis.copy();
    answers = sums.answers;
    sideAnswers = sums.sideAnswers;
    model = sums.model;
    sideModel = sums.sideModel;
    context = sums.context;
    window = sums.window;
    leftOut = sums.leftOut;
  }

  /** These sums as they stand, to count more into without changing them. */
  UsageSums copy() {
    return new UsageSums(this);
  }

  /**
   * One answer of the session's own conversation, by {@code model} when its record names one, whose
   * request sent {@code prompt} tokens in all (cached or not), when its record says.
   */
  UsageSums answer(String model, Long prompt) {
    answers++;
    this.model = model == null ? this.model : model;
    if (prompt != null) {
      context = prompt;
    }
    return priced(model, prompt);
  }

  /**
   * One answer of a sub-agent whose records share the file: in the sums and their pricing, not in
   * the turns, the model or the context.
   */
  UsageSums sideAnswer(String model, Long prompt) {
    sideAnswers++;
    sideModel = model == null ? sideModel : model;
    return priced(model, prompt);
  }

  private UsageSums priced(String model, Long prompt) {
    basis.model(model);
    basis.prompt(prompt);
    return this;
  }

  /** Input neither read from the prompt cache nor written to it. */
  UsageSums input(Long tokens) {
    input.add(tokens);
    return this;
  }

  /** Everything generated, reasoning included. */
  UsageSums output(Long tokens) {
    output.add(tokens);
    return this;
  }

  UsageSums cacheRead(Long tokens) {
    cacheRead.add(tokens);
    return this;
  }

  UsageSums cacheWrite(Long tokens) {
    cacheWrite.add(tokens);
    return this;
  }

  /** The one-hour part of the cache writes, where the CLI records the split. */
  UsageSums cacheWriteLong(Long tokens) {
    cacheWriteLong.add(tokens);
    return this;
  }

  /** The part of the output spent thinking. */
  UsageSums reasoning(Long tokens) {
    reasoning.add(tokens);
    return this;
  }

  /** The model's context window, when a record says it. */
  UsageSums window(Long tokens) {
    window = tokens == null ? window : tokens;
    return this;
  }

  void leftOut(RecordsLeftOut.Why why) {
    leftOut = leftOut.plus(why);
  }

  /**
   * What the sums say of a file of {@code kind} ({@code partial} when read only from near its end);
   * nothing when it holds no answer and nothing was left out.
   */
  UsageReport report(String kind, boolean partial) {
    if (answers + sideAnswers == 0 && leftOut.none()) {
      return UsageReport.NONE;
    }
    Usage usage =
        new Usage(
            model != null || answers > 0 ? model : sideModel,
            input.value(),
            output.value(),
            cacheRead.value(),
            cacheWrite.value(),
            reasoning.value(),
            answers,
            context,
            window,
            leftOut.describe(kind),
            partial);
    return new UsageReport(usage, null, basis.basis(cacheWriteLong.value()), leftOut);
  }
}
