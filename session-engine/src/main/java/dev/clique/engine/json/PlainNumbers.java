package dev.clique.engine.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.math.BigDecimal;

/**
 * Writes doubles as plain decimals ({@code 1767171234.87}, not {@code 1.76717123487E9}), the way
 * CLIque's panel writes its times, so that every client reads the numbers it expects.
 */
final class PlainNumbers extends StdSerializer<Double> {
  private static final long serialVersionUID = 1L;

  private PlainNumbers() {
    super(Double.class);
  }

  static SimpleModule module() {
    SimpleModule module = new SimpleModule("plain-numbers");
    module.addSerializer(Double.class, new PlainNumbers());
    module.addSerializer(double.class, new PlainNumbers());
    return module;
  }

  @Override
  public void serialize(Double value, JsonGenerator out, SerializerProvider provider)
      throws IOException {
    double d = value;
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      out.writeNull();
    } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      out.writeNumber((long) d);
    } else {
      out.writeNumber(BigDecimal.valueOf(d).stripTrailingZeros().toPlainString());
    }
  }
}
