package dev.clique.engine.catalogue;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The questions any program may ask ({@code [generic]} in {@code clis.toml}): read on a shell's
 * screen, and on every CLI's where its own signals and patterns say nothing.
 *
 * @param questions patterns that count on the last few lines: {@code (y/n)}, {@code Do you want
 *     ...?}
 * @param choices patterns of a menu's choice on the last few lines ({@code ❯ 1. Yes}): the question
 *     is the nearest line above that ends in {@code ?}
 * @param lastLineQuestions patterns that count on the very last line only (a short line ending in
 *     {@code ?}): higher up, such a line is output the program went on from
 */
public record GenericQuestions(
    List<Named> questions, List<Named> choices, List<Named> lastLineQuestions) {

  /** A pattern and the name {@code state_source} gives it. */
  public record Named(String name, Pattern pattern) {}

  public GenericQuestions {
    questions = List.copyOf(questions);
    choices = List.copyOf(choices);
    lastLineQuestions = List.copyOf(lastLineQuestions);
  }

  /** The bundled catalogue's set, for a session whose CLI the catalogue no longer knows. */
  public static GenericQuestions bundled() {
    return CliCatalogue.bundledGeneric();
  }
}
