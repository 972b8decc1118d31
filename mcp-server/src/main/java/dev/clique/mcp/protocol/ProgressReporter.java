package dev.clique.mcp.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Sends {@code notifications/progress} for a request that asked for it ({@code
 * params._meta.progressToken}) for as long as the request is pending, so that a client which resets
 * its time-out on progress does not give up on a long {@code wait}. One timer thread serves every
 * pending request.
 */
final class ProgressReporter implements AutoCloseable {
  private final FrameWriter out;
  private final Duration every;
  private final ScheduledExecutorService timer;

  ProgressReporter(FrameWriter out, Duration every) {
    if (every.isNegative() || every.isZero()) {
      throw new IllegalArgumentException("the progress interval must be positive, got " + every);
    }
    this.out = out;
    this.every = every;
    ScheduledThreadPoolExecutor executor =
        new ScheduledThreadPoolExecutor(
            1,
            task -> {
              Thread thread = new Thread(task, "clique-mcp-progress");
              thread.setDaemon(true);
              return thread;
            });
    executor.setRemoveOnCancelPolicy(true);
    this.timer = executor;
  }

  /** The token of a request that asked for progress, or {@code null}. */
  static JsonNode token(JsonNode params) {
    if (params == null || !params.isObject()) {
      return null;
    }
    JsonNode token = params.path("_meta").get("progressToken");
    return token != null && (token.isTextual() || token.isIntegralNumber()) ? token : null;
  }

  /**
   * Starts reporting for one request; running what it gives stops it, and no notification is sent
   * once that has returned, so the final answer is always the last word.
   */
  Runnable start(JsonNode token, String what) {
    Ticker ticker = new Ticker(token, what);
    long nanos = every.toNanos();
    ticker.schedule(timer.scheduleAtFixedRate(ticker, nanos, nanos, TimeUnit.NANOSECONDS));
    return ticker::stop;
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }

  private final class Ticker implements Runnable {
    private final JsonNode token;
    private final String what;
    private final long started = System.nanoTime();
    private int count;
    private boolean stopped;
    private ScheduledFuture<?> schedule;

    Ticker(JsonNode token, String what) {
      this.token = token;
      this.what = what;
    }

    synchronized void schedule(ScheduledFuture<?> schedule) {
      this.schedule = schedule;
      if (stopped) {
        schedule.cancel(false);
      }
    }

    @Override
    public synchronized void run() {
      if (stopped) {
        return;
      }
      count++;
      long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
      ObjectNode params = JsonNodeFactory.instance.objectNode();
      params.set("progressToken", token);
      params.put("progress", count);
      params.put("message", what + ": still waiting after " + seconds + " s");
      out.write(JsonRpc.notification("notifications/progress", params));
    }

    synchronized void stop() {
      stopped = true;
      if (schedule != null) {
        schedule.cancel(false);
      }
    }
  }
}
