package dev.clique.engine.session;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.util.AbstractList;
import java.util.List;

/**
 * The sessions as {@code GET /api/state} lists them, with their JSON written once per change of the
 * snapshot: serving the state many times a second then costs a copy, not a serialization.
 */
@JsonSerialize(using = SessionList.Json.class)
final class SessionList extends AbstractList<SessionView> {
  private final List<SessionView> views;
  private final String json;
  private volatile SessionList inBrief; // written at the first listing that asks for it

  SessionList(List<SessionView> views, String json) {
    this.views = List.copyOf(views);
    this.json = json;
  }

  /**
   * The same sessions, written with each one's usage in brief and no limits ({@link BriefUsage}):
   * once per list, as the full form is.
   */
  SessionList inBrief() {
    SessionList brief = inBrief;
    if (brief == null) {
      try {
        brief = new SessionList(views, BriefUsage.MAPPER.writeValueAsString(views));
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("the sessions could not be written as JSON", e);
      }
      brief.inBrief = brief;
      inBrief = brief;
    }
    return brief;
  }

  @Override
  public SessionView get(int index) {
    return views.get(index);
  }

  @Override
  public int size() {
    return views.size();
  }

  /** Writes the JSON made when the list was. */
  static final class Json extends StdSerializer<SessionList> {
    private static final long serialVersionUID = 1L;

    Json() {
      super(SessionList.class);
    }

    @Override
    public void serialize(SessionList value, JsonGenerator out, SerializerProvider provider)
        throws IOException {
      out.writeRawValue(value.json);
    }
  }
}
