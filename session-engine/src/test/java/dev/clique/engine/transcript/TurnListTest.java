package dev.clique.engine.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TurnListTest {

  @Test
  void consecutivePiecesOfOneRoleAreMergedByABlankLine() {
    TurnList turns = new TurnList();
    turns.add("user", "a");
    turns.add("user", "b");
    turns.add("assistant", "c");
    turns.add("user", "  ");
    turns.add("assistant", "d");

    assertThat(turns.lastTurns())
        .containsExactly(new Turn("user", "a\n\nb"), new Turn("assistant", "c\n\nd"));
  }

  @Test
  void onlyTheLastThreeHundredTurnsAreKept() {
    TurnList turns = new TurnList();
    for (int i = 0; i < 1000; i++) {
      turns.add(i % 2 == 0 ? "user" : "assistant", "turn " + i);
    }

    List<Turn> last = turns.lastTurns();

    assertThat(last).hasSize(300);
    assertThat(last.get(0).text()).isEqualTo("turn 700");
    assertThat(last.get(299).text()).isEqualTo("turn 999");
  }

  @Test
  void tidyDropsBlankLinesAroundTheTextButKeepsTheFirstIndent() {
    assertThat(TurnList.tidy("\n\n    code()\n  more\n\n ")).isEqualTo("    code()\n  more");
    assertThat(TurnList.tidy(" \t\n")).isEmpty();
    assertThat(TurnList.tidy("plain")).isEqualTo("plain");
  }
}
