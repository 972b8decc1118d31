package dev.clique.engine.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A usage record is summed only when each count it must hold is there and each it holds is sane.
 */
class CountsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final Counts COUNTS =
      Counts.required("input", "output").optional("cache.read", "thoughts");

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      nullValues = "none",
      value = {
        "{'input': 1, 'output': 2}                                  | none",
        "{'input': 0, 'output': 0, 'cache': {'read': 5}}            | none",
        "{'input': 1.0, 'output': 2, 'thoughts': null}              | none",
        "{'input': 1000000000000, 'output': 2}                      | none",
        "{'input': 1, 'output': 2, 'cache': 'none'}                 | none",
        "{'input': 1}                                               | MISSING",
        "{'input': 1, 'output': null}                               | MISSING",
        "[1, 2]                                                     | MISSING",
        "'not an object'                                            | MISSING",
        "{'input': '12', 'output': 2}                               | NOT_A_NUMBER",
        "{'input': 1, 'output': 2.5}                                | NOT_A_NUMBER",
        "{'input': true, 'output': 2}                               | NOT_A_NUMBER",
        "{'input': 1, 'output': 2, 'cache': {'read': {'n': 1}}}     | NOT_A_NUMBER",
        "{'input': -1, 'output': 2}                                 | NEGATIVE",
        "{'input': 1, 'output': 2, 'thoughts': -0.5}                | NOT_A_NUMBER",
        "{'input': 1, 'output': 2, 'thoughts': -3}                  | NEGATIVE",
        "{'input': -99999999999999999999999, 'output': 2}           | NEGATIVE",
        "{'input': 1000000000001, 'output': 2}                      | ABSURD",
        "{'input': 1, 'output': 99999999999999999999999999999}      | ABSURD",
        "{'input': 1, 'output': 2, 'cache': {'read': 1e300}}        | ABSURD",
      })
  void aRecordsCountsAreCheckedBeforeAnyIsSummed(String record, RecordsLeftOut.Why expected)
      throws Exception {
    JsonNode usage = JSON.readTree(record.replace('\'', '"'));

    assertThat(COUNTS.fault(usage)).isEqualTo(expected);
  }
}
