package dev.clique.mcp.resources;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What two reads of the state differ by: sessions changed, come or gone, and the list's own change.
 */
class ChangeFeedDiffTest {
  @Test
  void aChangedSessionIsChangedButTheListIsNot() {
    ChangeFeed.Changes changes =
        ChangeFeed.diff(Map.of("a", "idle", "b", "idle"), Map.of("a", "working", "b", "idle"));
    assertThat(changes.sessions()).containsExactly("a");
    assertThat(changes.listChanged()).isFalse();
    assertThat(changes.any()).isTrue();
  }

  @Test
  void sessionsComingAndGoingChangeTheListAndThemselves() {
    ChangeFeed.Changes changes =
        ChangeFeed.diff(Map.of("a", "idle", "b", "idle"), Map.of("b", "idle", "c", "idle"));
    assertThat(changes.sessions()).isEqualTo(Set.of("a", "c"));
    assertThat(changes.listChanged()).isTrue();
  }

  @Test
  void theSameStateIsNoChange() {
    ChangeFeed.Changes changes = ChangeFeed.diff(Map.of("a", "idle"), Map.of("a", "idle"));
    assertThat(changes.any()).isFalse();
  }
}
