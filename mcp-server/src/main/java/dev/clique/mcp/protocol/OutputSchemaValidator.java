package dev.clique.mcp.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks structured tool output against the tool's output schema, for the SDK, which calls it on
 * every successful result and turns a mismatch into a tool error. It uses the library and dialect
 * of the SDK's own validator (networknt, JSON Schema 2020-12), with three differences that matter
 * for a list of fifty sessions: a result that is already a JSON tree is checked as it is, not
 * copied into a new one; the valid result is not written out again as text (the SDK uses that text
 * only for a result without content, and every result here has its text); and compiled schemas are
 * found by identity, not by hashing the schema on every call.
 *
 * <p>The library is loaded on first use (or by {@link #prepare()} off the request path), not at
 * start-up, where it would delay the answer to {@code initialize}. The tools' schemas are
 * constants, checked against the 2020-12 meta-schema by a test rather than at every start.
 */
public final class OutputSchemaValidator implements JsonSchemaValidator {
  private final ObjectMapper json;
  private final Map<Map<String, Object>, Schema> compiled = new IdentityHashMap<>();
  private SchemaRegistry registry;

  public OutputSchemaValidator(ObjectMapper json) {
    this.json = json;
  }

  @Override
  public ValidationResponse validate(Map<String, Object> schema, Object structuredContent) {
    if (schema == null || structuredContent == null) {
      throw new IllegalArgumentException("a schema and structured content are needed");
    }
    JsonNode content =
        structuredContent instanceof JsonNode node ? node : json.valueToTree(structuredContent);
    List<Error> errors;
    try {
      errors = schemaFor(schema).validate(content);
    } catch (RuntimeException e) {
      return ValidationResponse.asInvalid("Unexpected validation error: " + e.getMessage());
    }
    return errors.isEmpty()
        ? ValidationResponse.asValid(null)
        : ValidationResponse.asInvalid("JSON schema validation errors: " + errors);
  }

  /** Loads the library and compiles nothing yet: a warm-up, off the path of any request. */
  public void prepare() {
    synchronized (this) {
      registry();
    }
  }

  private synchronized Schema schemaFor(Map<String, Object> schema) {
    return compiled.computeIfAbsent(schema, s -> registry().getSchema(json.valueToTree(s)));
  }

  private SchemaRegistry registry() {
    if (registry == null) {
      registry = SchemaRegistry.withDefaultDialect(Dialects.getDraft202012());
    }
    return registry;
  }
}
