package dev.clique.engine.tmux;

import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one server has done, as a stamp ({@link Activity}) that moves only when it did something,
 * and how the server is watched ({@link ServerWatch}). It listens to the server's {@link
 * ControlGateway}: each notice the control client hears (a session made or closed, a window, a
 * buffer) and the client's attach and loss move the stamp; the rest is read under {@code /proc}.
 */
final class ServerActivity {
  private static final Logger log = LoggerFactory.getLogger(ServerActivity.class);

  /** The last activity stamp made, and what it was made of. */
  private record LastActivity(long sent, long heard, String work, Activity activity) {}

  private final ControlGateway gateway;
  private final String socket;
  private final ProcFs proc;
  private final AtomicLong notices = new AtomicLong();
  private final AtomicLong moving = new AtomicLong();
  private volatile LastActivity lastActivity;
  private volatile ServerWatch watch;

  ServerActivity(ControlGateway gateway, String socket, ProcFs proc) {
    this.gateway = gateway;
    this.socket = socket;
    this.proc = proc;
  }

  /**
   * Each notice moves the stamp, but {@code %exit}: the client's end is counted once it is found
   * closed ({@link ControlNotice.Lost}).
   */
  void heard(ControlNotice notice) {
    if (!(notice instanceof ControlNotice.Exit)) {
      notices.incrementAndGet();
    }
  }

  /**
   * What the server has done, as a stamp that moves only when it did something: it read output of a
   * pane, a command of someone else's, or a file; a child of its came or went (a pane started or
   * died); its control client heard of a change (a session made or closed). Two plain reads under
   * {@code /proc} and no process, so it can be asked often; the commands the engine itself sends
   * through the control client are taken out. Null when it cannot tell (no {@code /proc}, no
   * control client on a server that runs): then only looking tells.
   */
  Activity activity() {
    if (!gateway.controlled()) {
      return spawnedActivity();
    }
    ControlClient client = gateway.client();
    if (client == null) {
      String stamp = gateway.socketStamp();
      if (stamp == null) {
        watched(ServerWatch.NO_SERVER, "no server runs on the socket");
        return new Activity("no server " + stamp);
      }
      String refusal = gateway.refusal(stamp);
      if (refusal == null) {
        return null;
      }
      if (ControlGateway.noServer(refusal)) {
        // A socket no server answers on, already tried: nothing moves until it does.
        watched(ServerWatch.NO_SERVER, refusal);
        return new Activity("no server " + stamp);
      }
      // A server runs that the client could not join (a tmux without control mode, say): only
      // listing its panes tells what it did.
      watched(ServerWatch.POLLING, "the control client could not attach: " + refusal);
      return null;
    }
    long sent = client.bytesSent();
    long serverPid = gateway.serverPid();
    String work = client.busy() ? null : proc.serverWork(serverPid);
    if (work == null || client.busy() || client.bytesSent() != sent) {
      if (work == null && !client.busy()) {
        watched(ServerWatch.POLLING, "no activity stamp: /proc/<server pid>/io cannot be read");
        return null;
      }
      return new Activity("moving " + moving.incrementAndGet());
    }
    watched(ServerWatch.EVENTS, "control client and /proc activity stamp");
    long heard = notices.get();
    LastActivity last = lastActivity;
    if (last != null && sent == last.sent && heard == last.heard && work.equals(last.work)) {
      return last.activity; // the same as at the last look, which an idle engine asks twice a
      // second
    }
    long foreign = ProcFs.bytesRead(work) - sent;
    String children = work.substring(work.indexOf(' ') + 1);
    Activity now =
        new Activity(
            new StringBuilder()
                .append(serverPid)
                .append(' ')
                .append(foreign)
                .append(' ')
                .append(heard)
                .append(' ')
                .append(children)
                .toString());
    lastActivity = new LastActivity(sent, heard, work, now);
    return now;
  }

  /**
   * A person's server, which no control client joins: the same reads, its pid asked once for each
   * socket it listens on. The engine's calls to it are processes of their own, whose commands tmux
   * does not count as read.
   */
  private Activity spawnedActivity() {
    String stamp = gateway.socketStamp();
    if (stamp == null) {
      watched(ServerWatch.NO_SERVER, "no server runs on the socket");
      return new Activity("no server");
    }
    long pid = gateway.serverPidOnce(stamp);
    if (pid <= 0) {
      watched(ServerWatch.NO_SERVER, "no tmux server answers on the socket");
      return new Activity("no answer " + stamp);
    }
    String work = proc.serverWork(pid);
    if (work == null) {
      watched(ServerWatch.POLLING, "no activity stamp: /proc/<server pid>/io cannot be read");
      return null;
    }
    watched(
        ServerWatch.EVENTS,
        "/proc activity stamp (a person's server: no control client, commands as processes)");
    return new Activity(pid + " " + work);
  }

  /**
   * How this server is watched, as the last look at what it did found it (a look is made now if
   * none was yet).
   */
  ServerWatch watch() {
    if (watch == null) {
      activity();
    }
    ServerWatch now = watch;
    return now != null ? now : new ServerWatch(socket, ServerWatch.POLLING, "not looked at yet");
  }

  /** Records how the server is watched; a change to polling is logged once, with its cause. */
  private void watched(String by, String why) {
    ServerWatch before = watch;
    if (before != null && before.by().equals(by) && before.why().equals(why)) {
      return; // as before: asked on every tick
    }
    ServerWatch now = new ServerWatch(socket, by, why);
    if (now.equals(before)) {
      return;
    }
    watch = now;
    if (by.equals(ServerWatch.POLLING)) {
      log.warn("tmux server {}: watched by polling: {}", socket, why);
    } else if (before != null && before.by().equals(ServerWatch.POLLING)) {
      log.info("tmux server {}: watched by {} again: {}", socket, by, why);
    }
  }
}
