package dev.clique.mcp.protocol;

import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import java.util.Map;

/**
 * The SDK's own validator of structured tool output, made on the first tool result instead of at
 * start-up: building it loads a JSON Schema library and the 2020-12 meta-schema, which would delay
 * the answer to {@code initialize}. The SDK still checks every result against its tool's output
 * schema. The tools' schemas are constants, checked against the meta-schema by a test rather than
 * at every start.
 */
public final class DeferredSchemaValidator implements JsonSchemaValidator {
  private volatile JsonSchemaValidator delegate;

  @Override
  public ValidationResponse validate(Map<String, Object> schema, Object structuredContent) {
    return delegate().validate(schema, structuredContent);
  }

  /** Builds the real validator now, off the path of any request (a warm-up). */
  public void prepare() {
    delegate();
  }

  private JsonSchemaValidator delegate() {
    JsonSchemaValidator made = delegate;
    if (made == null) {
      synchronized (this) {
        made = delegate;
        if (made == null) {
          made = new DefaultJsonSchemaValidator();
          delegate = made;
        }
      }
    }
    return made;
  }
}
