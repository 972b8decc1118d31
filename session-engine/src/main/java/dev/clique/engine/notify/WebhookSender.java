package dev.clique.engine.notify;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Posts a notice to a webhook in its format, within a time limit. A 2xx is delivered; a 5xx, a
 * time-out or a connection that failed is worth trying again; any other answer is not.
 */
final class WebhookSender implements Sender {
  private final Target.Webhook target;
  private final HttpClient http;
  private final Duration limit;
  private final String engine;

  WebhookSender(Target.Webhook target, HttpClient http, Duration limit, String engine) {
    this.target = target;
    this.http = http;
    this.limit = limit;
    this.engine = engine;
  }

  @Override
  public Outcome send(Notice notice) throws InterruptedException {
    Format.Payload payload = target.format().render(notice, target.url(), target.click(), engine);
    HttpRequest.Builder request =
        HttpRequest.newBuilder(payload.url())
            .timeout(limit)
            .header("Content-Type", "application/json; charset=utf-8")
            .header("User-Agent", "clique-notify")
            .POST(HttpRequest.BodyPublishers.ofString(payload.body(), StandardCharsets.UTF_8));
    try {
      target.headers().forEach(request::header);
    } catch (IllegalArgumentException e) {
      // Not the message: it could carry a header's value.
      return Outcome.failed("a header of its headers file is one Java's HTTP client may not send");
    }
    try {
      HttpResponse<Void> answer =
          http.send(request.build(), HttpResponse.BodyHandlers.discarding());
      int status = answer.statusCode();
      String said = "answered " + status;
      if (status / 100 == 2) {
        return Outcome.delivered(said);
      }
      return status >= 500 ? Outcome.retry(said) : Outcome.failed(said + " (not tried again)");
    } catch (HttpTimeoutException e) {
      return Outcome.retry("no answer within " + limit.toSeconds() + " s");
    } catch (IOException e) {
      // The message of a failed connection names the host at most, never the path.
      return Outcome.retry("could not be reached (" + e.getClass().getSimpleName() + ")");
    }
  }
}
