package dev.clique.mcp.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The argument rules of MCP.md, as seed 000 checks them on CLIque's wrapper. */
class ArgumentsTest {
  private static Arguments peek(Map<String, Object> values) throws ToolArgumentException {
    return Arguments.check(values, Set.of("id", "lines"));
  }

  private static Arguments waitFor(Map<String, Object> values) throws ToolArgumentException {
    return Arguments.check(values, Set.of("id", "timeout"));
  }

  @Test
  void peekLinesDefaultToEight() throws Exception {
    assertThat(peek(Map.of()).lines()).isEqualTo(8);
  }

  @Test
  void peekLinesAreCappedAt200NotRefused() throws Exception {
    assertThat(peek(Map.of("lines", 10000)).lines()).isEqualTo(200);
  }

  @Test
  void peekLinesBelowOneAreRefused() {
    assertThatThrownBy(() -> peek(Map.of("lines", 0)).lines())
        .hasMessage("lines must be at least 1");
  }

  @Test
  void aFractionOfALineIsTruncated() throws Exception {
    assertThat(peek(Map.of("lines", 12.9)).lines()).isEqualTo(12);
  }

  @Test
  void linesThatAreNotANumberAreRefused() {
    assertThatThrownBy(() -> peek(Map.of("lines", "40")).lines())
        .hasMessageStartingWith("lines must be");
    assertThatThrownBy(() -> peek(Map.of("lines", true)).lines())
        .hasMessageStartingWith("lines must be");
  }

  @Test
  void anOmittedTimeoutIsLeftToTheEngine() throws Exception {
    assertThat(waitFor(Map.of()).timeout()).isEmpty();
  }

  @Test
  void theTimeoutIsCappedAt300() throws Exception {
    assertThat(waitFor(Map.of("timeout", 9000)).timeout()).hasValue(300);
  }

  @Test
  void aNegativeOrNonNumericTimeoutIsRefused() {
    assertThatThrownBy(() -> waitFor(Map.of("timeout", -1)).timeout())
        .hasMessageStartingWith("timeout must be");
    assertThatThrownBy(() -> waitFor(Map.of("timeout", "soon")).timeout())
        .hasMessageStartingWith("timeout must be");
  }

  @Test
  void theIdMustBeANonBlankString() {
    assertThatThrownBy(() -> peek(Map.of()).id()).hasMessageStartingWith("id must be");
    assertThatThrownBy(() -> peek(Map.of("id", "  ")).id()).hasMessageStartingWith("id must be");
    assertThatThrownBy(() -> peek(Map.of("id", 7)).id()).hasMessageStartingWith("id must be");
  }

  @Test
  void anUndeclaredArgumentIsRefusedByName() {
    assertThatThrownBy(() -> peek(Map.of("id", "x", "colour", "red")))
        .hasMessageContaining("colour");
  }
}
