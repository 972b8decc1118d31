package dev.clique.engine.http;

import dev.clique.engine.hooks.HookReports;
import dev.clique.engine.notify.NotifyTargets;
import dev.clique.engine.session.SessionService;
import dev.clique.engine.token.TokenStore;
import dev.clique.engine.transcript.Transcripts;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's HTTP API (HTTP-API.md) as Jetty's handler: Host guard first, then the {@link
 * Routes}, which check the bearer token and its scope; an error a route raises becomes its answer
 * here. Every answer is written in one go, body and headers together ({@link Answers}).
 */
public final class ApiHandler extends Handler.Abstract {
  private static final Logger log = LoggerFactory.getLogger(ApiHandler.class);

  private final HostGuard hosts;
  private final HeldRequests held;
  private final Routes routes;

  public ApiHandler(
      SessionService sessions,
      Transcripts transcripts,
      TokenStore tokens,
      HostGuard hosts,
      Clock clock,
      String version,
      Path userHome,
      HookReports hookReports,
      Supplier<List<NotifyTargets.Status>> notifications) {
    this.hosts = hosts;
    Answers answers = new Answers(sessions, transcripts, clock, version, userHome);
    this.held = new HeldRequests(sessions, answers);
    this.routes =
        new Routes(sessions, new Access(tokens), answers, held, hookReports, notifications);
  }

  /** What Jetty answers with for requests it refuses before they reach the API. */
  public static Request.Handler errorHandler() {
    return new PlainErrorHandler();
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    try {
      if (!hosts.allows(request.getHeaders().get(HttpHeader.HOST))) {
        Answers.send(response, callback, 403, "text/plain; charset=utf-8", "host not allowed");
        return true;
      }
      routes.route(request, response, callback);
    } catch (ApiError e) {
      Answers.error(response, callback, e);
    } catch (RuntimeException e) {
      log.error("request {} {} failed", request.getMethod(), request.getHttpURI().getPath(), e);
      Answers.error(response, callback, 500, "internal error");
    }
    return true;
  }

  /** The most file descriptors this process may hold, or a conservative guess off Unix. */
  public static long maxDescriptors() {
    // Linux says it in /proc: the platform MXBean would load the JMX and JFR management classes
    // (some 3 MiB resident) into a process that should stay small, for one number.
    long fromProc = softLimitOfOpenFiles(Path.of("/proc/self/limits"));
    if (fromProc > 0) {
      return fromProc;
    }
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
      return unix.getMaxFileDescriptorCount();
    }
    return 1024;
  }

  /**
   * The soft limit of {@code Max open files} in a {@code /proc/<pid>/limits} file; {@link
   * Long#MAX_VALUE} when unlimited, 0 when the file or the line is not there or not understood.
   */
  static long softLimitOfOpenFiles(Path limits) {
    List<String> lines;
    try {
      lines = Files.readAllLines(limits, StandardCharsets.US_ASCII);
    } catch (IOException | RuntimeException e) {
      return 0;
    }
    for (String line : lines) {
      if (line.startsWith("Max open files")) {
        String[] fields = line.substring("Max open files".length()).strip().split("\\s+");
        if (fields[0].equals("unlimited")) {
          return Long.MAX_VALUE;
        }
        try {
          return Long.parseLong(fields[0]);
        } catch (NumberFormatException e) {
          return 0;
        }
      }
    }
    return 0;
  }

  @Override
  protected void doStop() throws Exception {
    held.close();
    routes.close();
    super.doStop();
  }
}
