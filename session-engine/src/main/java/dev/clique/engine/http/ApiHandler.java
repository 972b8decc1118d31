package dev.clique.engine.http;

import dev.clique.engine.session.SessionService;
import dev.clique.engine.token.TokenStore;
import dev.clique.engine.transcript.Transcripts;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Clock;
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
      Path userHome) {
    this.hosts = hosts;
    Answers answers = new Answers(sessions, transcripts, clock, version, userHome);
    this.held = new HeldRequests(sessions, answers);
    this.routes = new Routes(sessions, new Access(tokens), answers, held);
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
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
      return unix.getMaxFileDescriptorCount();
    }
    return 1024;
  }

  @Override
  protected void doStop() throws Exception {
    held.close();
    routes.close();
    super.doStop();
  }
}
