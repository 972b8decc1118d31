package dev.clique.engine.notify;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.engine.json.EngineJson;
import dev.clique.engine.session.BriefUsage;
import dev.clique.engine.session.SessionView;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * The body a webhook is sent, by its {@code format}: clique's own JSON, or the JSON that ntfy,
 * Slack's and Discord's incoming webhooks document. Every text a session brings (its name, its
 * question) is put on one line, escaped for the service (a session named {@code @channel} or {@code
 * <!here>} pings nobody), and bounded.
 */
enum Format {
  /** {@code {"event", "session": {...}, "state", "attention", "usage", "at"}}. */
  JSON,
  /**
   * ntfy's JSON publishing: posted to the server's root, the topic (the URL's last segment) in the
   * body with the title, message, priority, tags and click link.
   */
  NTFY,
  /** Slack's incoming webhook: {@code {"text": ...}}, its {@code & < >} escaped. */
  SLACK,
  /** Discord's webhook: {@code {"content": ..., "allowed_mentions": {"parse": []}}}. */
  DISCORD;

  /** The most text a message carries (Discord takes 2000 characters of content). */
  static final int TEXT_MAX = 4000;

  static final int DISCORD_MAX = 2000;

  /** The most sessions a burst's JSON lists, and a message names. */
  static final int SESSIONS_MAX = 20;

  private static final ObjectMapper JSON_MAPPER = EngineJson.mapper();

  /** What is posted: where, and the body (always JSON). */
  record Payload(URI url, String body) {}

  /** The format {@code name} names, or null. */
  static Format named(String name) {
    for (Format format : values()) {
      if (format.name().equalsIgnoreCase(name)) {
        return format;
      }
    }
    return null;
  }

  Payload render(Notice notice, URI url, String click, String engine) {
    return switch (this) {
      case JSON -> new Payload(url, Messages.json(notice, engine).toString());
      case NTFY -> ntfy(notice, url, click);
      case SLACK -> slack(notice, url);
      case DISCORD -> discord(notice, url);
    };
  }

  private static Payload ntfy(Notice notice, URI url, String click) {
    String path = url.getRawPath() == null ? "" : url.getRawPath();
    int slash = path.lastIndexOf('/');
    String topic = URI.create("x:" + path.substring(slash + 1)).getSchemeSpecificPart();
    // The root keeps the URL's query: ntfy takes its access token there too (?auth=...).
    URI root =
        URI.create(
            url.getScheme()
                + "://"
                + url.getRawAuthority()
                + path.substring(0, slash + 1)
                + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery()));
    ObjectNode body = JSON_MAPPER.createObjectNode();
    body.put("topic", topic);
    body.put("title", Messages.clip(Messages.title(notice), 250));
    body.put("message", Messages.clip(Messages.body(notice), TEXT_MAX));
    body.put("priority", notice.event() == Event.FINISHED ? 3 : 4);
    body.putArray("tags").add(tag(notice.event()));
    if (click != null) {
      body.put("click", click);
    }
    return new Payload(root, body.toString());
  }

  private static String tag(Event event) {
    return switch (event) {
      case WAITING -> "bell";
      case USAGE_LIMIT -> "hourglass";
      case ERROR -> "warning";
      case FINISHED -> "white_check_mark";
      case STOPPED -> "stop_sign";
    };
  }

  private static Payload slack(Notice notice, URI url) {
    ObjectNode body = JSON_MAPPER.createObjectNode();
    String text = Messages.title(notice) + "\n" + Messages.body(notice);
    body.put("text", Messages.clip(slackEscaped(Messages.clip(text, TEXT_MAX / 2)), TEXT_MAX));
    body.put("mrkdwn", false);
    return new Payload(url, body.toString());
  }

  /**
   * Slack's control characters as its entities, and an {@code @} kept from starting a mention
   * ({@code @channel}, {@code @here}) by a word joiner after it.
   */
  static String slackEscaped(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("@", "@\u2060");
  }

  private static Payload discord(Notice notice, URI url) {
    ObjectNode body = JSON_MAPPER.createObjectNode();
    String text = Messages.title(notice) + "\n" + Messages.body(notice);
    body.put(
        "content",
        Messages.clip(discordEscaped(Messages.clip(text, DISCORD_MAX / 2)), DISCORD_MAX));
    body.putObject("allowed_mentions").putArray("parse");
    return new Payload(url, body.toString());
  }

  /** Discord's markdown characters escaped with a backslash, so a name shows as it is. */
  static String discordEscaped(String text) {
    StringBuilder escaped = new StringBuilder(text.length() + 16);
    for (char c : text.toCharArray()) {
      if ("\\*_~`|>#[]()-:<@".indexOf(c) >= 0) {
        escaped.append('\\');
      }
      escaped.append(c);
    }
    return escaped.toString();
  }

  /** The words of a notice, shared by the formats and the commands' JSON. */
  static final class Messages {
    private Messages() {}

    /** One line: {@code api-fix needs you}, {@code 3 sessions finished: a, b, c}. */
    static String title(Notice notice) {
      List<SessionView> sessions = notice.sessions();
      String verb =
          switch (notice.event()) {
            case WAITING -> "needs you";
            case USAGE_LIMIT -> "reached its usage limit";
            case ERROR -> "shows an error";
            case FINISHED -> "finished";
            case STOPPED -> "stopped";
          };
      if (sessions.size() == 1) {
        return line(nameOf(sessions.get(0))) + " " + verb;
      }
      List<String> names = new ArrayList<>();
      for (SessionView view : sessions.subList(0, Math.min(SESSIONS_MAX, sessions.size()))) {
        names.add(line(nameOf(view)));
      }
      String more =
          sessions.size() > SESSIONS_MAX
              ? " and " + (sessions.size() - SESSIONS_MAX) + " more"
              : "";
      String plural =
          switch (notice.event()) {
            case USAGE_LIMIT -> "reached their usage limits";
            case ERROR -> "show errors";
            case WAITING -> "need you";
            default -> verb;
          };
      return sessions.size() + " sessions " + plural + ": " + String.join(", ", names) + more;
    }

    /** Why, on one line: the question, the permission's command, the error, how it ended. */
    static String body(Notice notice) {
      SessionView view = notice.first();
      String where =
          line(view.cliLabel() == null ? view.cli() : view.cliLabel()) + " in " + line(view.cwd());
      SessionView.AttentionView attention = view.attention();
      return switch (notice.event()) {
        case WAITING, ERROR ->
            attention == null
                ? where
                : line(attention.kind()) + ": " + line(attention.detail()) + " (" + where + ")";
        case USAGE_LIMIT ->
            (attention == null ? "" : line(attention.detail()))
                + (attention != null && attention.resetsAt() != null
                    ? " (resets at " + attention.resetsAt() + ")"
                    : "")
                + " ("
                + where
                + ")";
        case FINISHED -> notice.sessions().size() == 1 ? where + ": idle" : "idle now";
        case STOPPED ->
            notice.sessions().size() == 1
                ? where
                    + ": "
                    + (view.stateSource() == null ? "ended" : line(view.stateSource().evidence()))
                    + (notice.lastLine() == null
                        ? ""
                        : "; its last line: " + line(notice.lastLine()))
                : "their programs ended";
      };
    }

    /**
     * clique's own JSON of a notice: {@code event}, {@code session} ({@code id}, {@code name},
     * {@code cli}, {@code cwd}, {@code engine}), {@code state}, {@code attention} as the state
     * shows it, {@code usage} in brief, {@code at}; a burst's every session in {@code sessions}.
     */
    static ObjectNode json(Notice notice, String engine) {
      ObjectNode body = JSON_MAPPER.createObjectNode();
      SessionView view = notice.first();
      body.put("event", notice.event().wireName());
      body.set("session", session(view, engine));
      body.put("state", view.state());
      body.set("attention", JSON_MAPPER.valueToTree(view.attention()));
      body.set("usage", BriefUsage.of(view.usage()));
      body.put("exit_status", view.exitStatus());
      if (notice.lastLine() != null) {
        body.put("last_line", line(notice.lastLine()));
      }
      body.put("at", notice.at().toString());
      body.put("title", clip(title(notice), 250));
      body.put("message", clip(body(notice), TEXT_MAX));
      if (notice.sessions().size() > 1) {
        ArrayNode all = body.putArray("sessions");
        for (SessionView each :
            notice.sessions().subList(0, Math.min(SESSIONS_MAX, notice.sessions().size()))) {
          all.add(session(each, engine));
        }
      }
      return body;
    }

    private static ObjectNode session(SessionView view, String engine) {
      ObjectNode session = JSON_MAPPER.createObjectNode();
      session.put("id", view.id());
      session.put("name", view.name() == null ? null : clip(view.name(), 200));
      session.put("cli", view.cli());
      session.put("cwd", clip(view.cwd(), 1000));
      session.put("engine", engine);
      return session;
    }

    private static String nameOf(SessionView view) {
      return view.name() == null || view.name().isBlank() ? view.id() : view.name();
    }

    /** Every control character (a line break, an escape) as a space: one line, nothing hidden. */
    static String line(String text) {
      if (text == null) {
        return "";
      }
      StringBuilder one = new StringBuilder(text.length());
      text.codePoints()
          .forEach(
              c ->
                  one.appendCodePoint(
                      Character.isISOControl(c) || c == 0x2028 || c == 0x2029 ? ' ' : c));
      return clip(one.toString(), 500);
    }

    /** At most {@code max} characters, never half a surrogate pair, an ellipsis when cut. */
    static String clip(String text, int max) {
      if (text == null || text.length() <= max) {
        return text;
      }
      int end = max - 1;
      if (Character.isHighSurrogate(text.charAt(end - 1))) {
        end--;
      }
      return text.substring(0, end) + "…";
    }
  }
}
