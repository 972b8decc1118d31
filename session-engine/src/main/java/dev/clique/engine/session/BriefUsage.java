package dev.clique.engine.session;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import dev.clique.engine.json.EngineJson;
import dev.clique.engine.transcript.Usage;
import java.io.IOException;

/**
 * How {@code GET /api/state?usage=brief} writes the sessions ({@link SessionList#inBrief()}): each
 * one's usage as the two figures a list shows, and no limits, so a listing of many sessions costs
 * the engine, the client and an assistant's context little.
 *
 * <pre>{@code
 * "usage": {"tokens": 18230, "context_percent": 21}
 * }</pre>
 *
 * <p>{@code tokens} is what the model took in or wrote (fresh input, cache writes, output), cache
 * reads aside, absent when the CLI records none of them; {@code context_percent} how full the
 * context window was at the last request, or {@code context_tokens} instead when the window is
 * unknown.
 */
public final class BriefUsage extends StdSerializer<Usage> {
  private static final long serialVersionUID = 1L;

  static final ObjectMapper MAPPER =
      EngineJson.newMapper()
          .addMixIn(SessionView.class, WithoutLimits.class)
          .registerModule(new SimpleModule().addSerializer(Usage.class, new BriefUsage()));

  @JsonIgnoreProperties("limits")
  private abstract static class WithoutLimits {}

  private BriefUsage() {
    super(Usage.class);
  }

  /** {@code usage} in brief, as a listing writes it; null when there is none. */
  public static JsonNode of(Usage usage) {
    return usage == null ? null : MAPPER.valueToTree(usage);
  }

  @Override
  public void serialize(Usage usage, JsonGenerator out, SerializerProvider provider)
      throws IOException {
    out.writeStartObject();
    Long tokens = null;
    for (Long part :
        new Long[] {usage.inputTokens(), usage.cacheWriteTokens(), usage.outputTokens()}) {
      if (part != null) {
        tokens = (tokens == null ? 0 : tokens) + part;
      }
    }
    if (tokens != null) {
      out.writeNumberField("tokens", tokens);
    }
    Long context = usage.contextTokens();
    Long window = usage.contextWindow();
    if (context != null && window != null && window > 0) {
      out.writeNumberField("context_percent", Math.round(100.0 * context / window));
    } else if (context != null) {
      out.writeNumberField("context_tokens", context);
    }
    out.writeEndObject();
  }
}
