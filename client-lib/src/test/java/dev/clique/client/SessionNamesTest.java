package dev.clique.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link EngineState#named(String)}: the rule by which a word names a session, for every command
 * that takes one. An id wins over a name, a name over the start of an id.
 */
class SessionNamesTest {
  private static final EngineState STATE =
      EngineState.fromJson(
          "{\"version\": \"1\", \"sessions\": ["
              + row("aaaa1111-0000", "api")
              + ","
              + row("bbbb2222-0000", "twin")
              + ","
              + row("cccc3333-0000", "twin")
              + ","
              + row("dddd4444-0000", "aaaa1111-0000")
              + ","
              + row("eeee5555-0000", "bbbb")
              + "]}");

  private static String row(String id, String name) {
    return "{\"id\": \"" + id + "\", \"name\": \"" + name + "\", \"state\": \"idle\"}";
  }

  private static List<String> ids(String wanted) {
    return STATE.named(wanted).stream().map(Session::id).toList();
  }

  @Test
  void anIdNamesItsSession() {
    assertThat(ids("cccc3333-0000")).containsExactly("cccc3333-0000");
  }

  @Test
  void aNameOfOneSessionNamesIt() {
    assertThat(ids("api")).containsExactly("aaaa1111-0000");
  }

  @Test
  void aNameOfSeveralSessionsNamesEachOfThem() {
    assertThat(ids("twin")).containsExactly("bbbb2222-0000", "cccc3333-0000");
  }

  @Test
  void anIdWinsOverTheSameWordAsAnotherSessionsName() {
    assertThat(ids("aaaa1111-0000")).containsExactly("aaaa1111-0000");
  }

  @Test
  void aNameWinsOverTheStartOfAnId() {
    assertThat(ids("bbbb")).containsExactly("eeee5555-0000");
  }

  @Test
  void theStartOfAnIdNamesItsSessionFromFourCharacters() {
    assertThat(ids("cccc")).containsExactly("cccc3333-0000");
    assertThat(ids("ccc")).isEmpty();
  }

  @Test
  void aWordThatIsNoIdNoNameAndNoStartOfAnIdNamesNothing() {
    assertThat(ids("nobody")).isEmpty();
    assertThat(ids("")).isEmpty();
  }
}
