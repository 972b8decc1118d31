package dev.clique.engine.notify;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Where notices go: a webhook or a command, each with the notices it wants and its rate. */
sealed interface Target permits Target.Webhook, Target.Command {
  /** How logs name it: its kind, its place in the file and its URL masked, never a secret. */
  String label();

  Selection selection();

  /** At most this many notices a minute; the rest are dropped, with a log line. */
  int perMinute();

  /**
   * A URL notices are posted to in {@code format}, with the {@code headers} of its headers file (a
   * bearer: never logged, never in a message).
   */
  record Webhook(
      String label,
      URI url,
      Format format,
      Map<String, String> headers,
      String click,
      Selection selection,
      int perMinute)
      implements Target {
    @Override
    public String toString() {
      return label; // not the headers, not the URL's path
    }
  }

  /** A program run for each notice, its JSON on stdin, stopped after {@code limit}. */
  record Command(String label, List<String> run, Duration limit, Selection selection, int perMinute)
      implements Target {
    @Override
    public String toString() {
      return label;
    }
  }

  /**
   * A URL as logs may show it: its scheme, host and port, the rest (a topic, a webhook's secret
   * path, a query) masked: {@code https://ntfy.sh/***}.
   */
  static String masked(URI url) {
    String shown =
        url.getScheme() + "://" + url.getHost() + (url.getPort() < 0 ? "" : ":" + url.getPort());
    boolean more =
        (url.getRawPath() != null && !url.getRawPath().isEmpty() && !url.getRawPath().equals("/"))
            || url.getRawQuery() != null
            || url.getRawFragment() != null;
    return more ? shown + "/***" : shown;
  }
}
