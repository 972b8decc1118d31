package dev.clique.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.mcp.protocol.ServerJson;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The server's mapper writes text blocks its own way, and the JSON is the same. */
class ServerJsonTest {
  @Test
  void aTextBlockIsWrittenAsThePlainMapperWritesIt() throws Exception {
    ObjectMapper server = ServerJson.mapper();
    ObjectMapper plain = new ObjectMapper();
    assertThat(server.getSerializationConfig().findMixInClassFor(TextContent.class)).isNotNull();
    String text = Fixtures.contract("peek.json") + "\"quotes\" \\ \u0001 \u2028 é ❯ \ud83d\ude00";
    CallToolResult result =
        CallToolResult.builder()
            .content(List.of(TextContent.builder(text).build()))
            .isError(false)
            .build();
    // A character outside the BMP may be written as its four UTF-8 bytes rather than escaped as
    // two surrogates: the same JSON all the same.
    assertThat(plain.readTree(server.writeValueAsBytes(result)))
        .isEqualTo(plain.readTree(plain.writeValueAsBytes(result)));
    assertThat(plain.readTree(server.writeValueAsString(result)))
        .isEqualTo(plain.readTree(plain.writeValueAsString(result)));
    String ascii = Fixtures.contract("state.json");
    CallToolResult plainText =
        CallToolResult.builder()
            .content(List.of(TextContent.builder(ascii).build()))
            .isError(false)
            .build();
    assertThat(server.writeValueAsBytes(plainText)).isEqualTo(plain.writeValueAsBytes(plainText));
    assertThat(server.readTree(server.writeValueAsBytes(result)).at("/content/0/text").asText())
        .isEqualTo(text);
  }
}
