package dev.clique.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import org.junit.jupiter.api.Test;

/** The capabilities written by hand are those the SDK's server is built with. */
class CapabilitiesTest {
  @Test
  void theHandWrittenCapabilitiesAreTheSdksOwn() {
    ServerCapabilities sdk =
        ServerCapabilities.builder().tools(false).resources(true, true).build();
    assertThat(CliqueMcpServer.capabilities()).isEqualTo(Fixtures.JSON.valueToTree(sdk));
  }
}
