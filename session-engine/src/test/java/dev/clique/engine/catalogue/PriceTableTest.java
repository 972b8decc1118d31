package dev.clique.engine.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The price table: rows found by exact name or by their pattern, the user's file laid over the
 * bundled one, and a broken user file said once, with its file and line, and pricing nothing.
 */
class PriceTableTest {

  @TempDir Path home;

  @Test
  void theBundledTableLoadsWhole() {
    PriceTable table = PriceTable.load(home.resolve("prices.toml"));

    assertThat(table.problems()).isEmpty();
    assertThat(table.find("claude-haiku-4-5")).isPresent();
    assertThat(table.find("gpt-5")).isPresent();
    assertThat(table.find("gemini-2.5-flash")).isPresent();
  }

  @Test
  void aDatedModelIdFindsTheRowOfItsModel() {
    PriceTable table = PriceTable.bundled();

    ModelPrice sonnet = table.find("claude-sonnet-4-5-20250929").orElseThrow();
    assertThat(sonnet.name()).isEqualTo("claude-sonnet-4-5");
    assertThat(sonnet.input()).isEqualByComparingTo("3");
    assertThat(sonnet.cacheWriteLong()).isEqualByComparingTo("6");
    assertThat(table.find("gpt-5-2025-08-07").orElseThrow().name()).isEqualTo("gpt-5");
  }

  @Test
  void aPatternNeverTakesANeighbouringModel() {
    PriceTable table = PriceTable.bundled();

    assertThat(table.find("claude-opus-4-5-20251101").orElseThrow().name())
        .isEqualTo("claude-opus-4-5");
    assertThat(table.find("claude-opus-4-20250514").orElseThrow().name())
        .isEqualTo("claude-opus-4");
    assertThat(table.find("gpt-5-mini").orElseThrow().name()).isEqualTo("gpt-5-mini");
    assertThat(table.find("gpt-5.1-codex-mini").orElseThrow().input()).isEqualByComparingTo("0.25");
  }

  @Test
  void anUnknownModelFindsNoRow() {
    PriceTable table = PriceTable.bundled();

    assertThat(table.find("claude-opus-5-5")).isEmpty();
    assertThat(table.find("gpt-6-codex")).isEmpty();
    assertThat(table.find("qwen3-coder-plus")).isEmpty();
    assertThat(table.find("claude-sonnet-4-5-latest-preview")).isEmpty();
    assertThat(table.find("")).isEmpty();
    assertThat(table.find(null)).isEmpty();
  }

  @Test
  void aUserRowReplacesTheBundledRowOfItsNameAndANewOneAddsAModel() throws Exception {
    Path file = home.resolve("prices.toml");
    Files.writeString(
        file,
        """
        [model."claude-sonnet-4-5"]
        match = 'claude-sonnet-4-5(-\\d{8})?'
        input = 2.5
        output = 12

        [model."claude-opus-5-5"]
        input = 4
        output = 20
        cache_read = 0.2
        """);

    PriceTable table = PriceTable.load(file);

    assertThat(table.problems()).isEmpty();
    ModelPrice replaced = table.find("claude-sonnet-4-5-20250929").orElseThrow();
    assertThat(replaced.input()).isEqualByComparingTo(new BigDecimal("2.5"));
    assertThat(replaced.cacheRead()).as("the bundled row is gone, not merged").isNull();
    assertThat(table.find("claude-opus-5-5").orElseThrow().output()).isEqualByComparingTo("20");
    assertThat(table.find("claude-haiku-4-5").orElseThrow().input())
        .as("the other bundled rows stay")
        .isEqualByComparingTo("1");
  }

  @Test
  void theUsersPatternsAreTriedBeforeTheBundledOnes() throws Exception {
    Path file = home.resolve("prices.toml");
    Files.writeString(
        file,
        """
        [model."any-gpt-5"]
        match = 'gpt-5.*'
        input = 9
        output = 9
        """);

    PriceTable table = PriceTable.load(file);

    assertThat(table.find("gpt-5-2025-08-07").orElseThrow().name()).isEqualTo("any-gpt-5");
    assertThat(table.find("gpt-5").orElseThrow().name())
        .as("an exact name comes first")
        .isEqualTo("gpt-5");
  }

  @Test
  void aBrokenPatternIsSaidOnceWithItsFileAndLineAndNothingIsPriced() throws Exception {
    Path file = home.resolve("prices.toml");
    Files.writeString(
        file,
        """
        # my prices
        [model."claude-opus-5-5"]
        input = 4
        output = 20
        match = 'claude-opus-5-5(-\\d{8}'
        """);
    List<String> said = new ArrayList<>();

    PriceTable table = PriceTable.load(file, said::add);
    for (int i = 0; i < 3; i++) {
      assertThat(table.find("claude-opus-5-5")).isEmpty();
      assertThat(table.find("claude-sonnet-4-5")).as("nor the bundled rows").isEmpty();
    }

    assertThat(said)
        .singleElement()
        .asString()
        .contains(file + " line 5")
        .contains("model.claude-opus-5-5.match")
        .contains("no cost estimates");
    assertThat(table.problems()).isEqualTo(said);
  }

  @Test
  void aFileThatIsNotTomlIsSaidWithItsLine() throws Exception {
    Path file = home.resolve("prices.toml");
    Files.writeString(file, "[model.\"gpt-5\"]\ninput = 1\noutput = = 2\n");
    List<String> said = new ArrayList<>();

    PriceTable table = PriceTable.load(file, said::add);

    assertThat(said).singleElement().asString().contains(file + " line 3");
    assertThat(table.find("gpt-5")).isEmpty();
  }

  @Test
  void eachBadValueIsSaidWithItsLine() throws Exception {
    Path file = home.resolve("prices.toml");
    Files.writeString(
        file,
        """
        [model."a"]
        input = -1
        output = 2

        [model."b"]
        input = 1
        cache_reed = 0.1

        [model."c"]
        input = 1
        output = "two"
        flat_up_to = 0.5

        [currency]
        name = "EUR"
        """);
    List<String> said = new ArrayList<>();

    PriceTable.load(file, said::add);

    assertThat(said)
        .anySatisfy(s -> assertThat(s).contains(file + " line 2").contains("model.a.input"))
        .anySatisfy(s -> assertThat(s).contains(file + " line 5").contains("has no output"))
        .anySatisfy(s -> assertThat(s).contains(file + " line 7").contains("cache_reed"))
        .anySatisfy(s -> assertThat(s).contains(file + " line 11").contains("model.c.output"))
        .anySatisfy(s -> assertThat(s).contains(file + " line 12").contains("flat_up_to"))
        .anySatisfy(s -> assertThat(s).contains(file + " line 14").contains("currency"))
        .hasSize(6);
  }

  @Test
  void noUserFileIsTheBundledTable() {
    List<String> said = new ArrayList<>();

    PriceTable table = PriceTable.load(home.resolve("prices.toml"), said::add);

    assertThat(said).isEmpty();
    assertThat(table.find("claude-sonnet-4-5")).isPresent();
  }
}
