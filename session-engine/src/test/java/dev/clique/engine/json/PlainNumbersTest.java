package dev.clique.engine.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlainNumbersTest {
  private final ObjectMapper json = EngineJson.mapper();

  @Test
  void timesAreWrittenAsPlainDecimalsLikeThePanelWritesThem() throws Exception {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("created", 1767171234.87);
    body.put("activity", 1796057409.0);
    body.put("waited", 12.3);
    body.put("tiny", 0.0001);
    assertThat(json.writeValueAsString(body))
        .isEqualTo(
            "{\"created\":1767171234.87,\"activity\":1796057409,\"waited\":12.3,\"tiny\":0.0001}");
  }

  @Test
  void aNumberThatIsNotANumberBecomesNull() throws Exception {
    assertThat(json.writeValueAsString(Map.of("x", Double.NaN))).isEqualTo("{\"x\":null}");
  }
}
