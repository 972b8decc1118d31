package dev.clique.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.engine.home.AtomicFile;
import dev.clique.engine.home.CliqueHome;
import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.SocketChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One engine per home: the process that runs it holds the home's engine lock ({@code .engine.lock})
 * for the engine's lifetime and says in {@code engine.json} where it listens. The kernel releases
 * the lock when that process ends, however it ends (kill -9 too), and a waiting process takes it
 * over within {@value #LOOK_AGAIN_MILLIS} ms; the file holds no secret, only the URL, the pid and
 * an HTTPS engine's fingerprint.
 */
final class EngineClaim implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** How often a process waiting to take over looks whether the lock is free. */
  static final long LOOK_AGAIN_MILLIS = 100;

  /** Where the home's engine listens, as the process that runs it wrote. */
  record Advert(String url, long pid, String certificateSha256) {}

  private final CliqueHome home;
  private final FileChannel channel;
  private final CountDownLatch closing = new CountDownLatch(1);
  private volatile FileLock lock;
  private volatile boolean advertised;

  private EngineClaim(CliqueHome home, FileChannel channel) {
    this.home = home;
    this.channel = channel;
  }

  /** Opens the home's engine lock (0600), not yet held. */
  static EngineClaim of(CliqueHome home) throws IOException {
    Path file = home.engineLock();
    FileChannel channel;
    try {
      channel =
          FileChannel.open(
              file,
              Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (FileAlreadyExistsException e) {
      channel = FileChannel.open(file, StandardOpenOption.WRITE);
    }
    return new EngineClaim(home, channel);
  }

  /** Takes the lock if no process holds it; true when this one now does. */
  boolean tryAcquire() throws IOException {
    lock = channel.tryLock();
    if (lock != null) {
      forget(); // what a holder killed with -9 left: nobody listens there any more
      heartbeat = Heartbeat.listen(home.dir().resolve(HEARTBEAT));
    }
    return lock != null;
  }

  /** The holder's Unix socket: a connection to it ends when the holder's process does. */
  static final String HEARTBEAT = ".engine.alive";

  private volatile Heartbeat heartbeat; // the holder's
  private volatile SocketChannel watching; // a waiter's connection to the holder

  /**
   * Waits, without waking, until the process that holds the lock ends: a connection to its
   * heartbeat socket reads nothing until the kernel closes it with that process. False when there
   * is no heartbeat to connect to (a holder that has none, or is starting), or the wait was ended.
   */
  private boolean waitForTheHolder() {
    Path socket = home.dir().resolve(HEARTBEAT);
    try (SocketChannel holder = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
      watching = holder;
      if (closing.getCount() == 0) {
        return false;
      }
      ByteBuffer nothing = ByteBuffer.allocate(1);
      while (holder.read(nothing.clear()) >= 0) {
        // the holder never writes: only its end tells
      }
      return true;
    } catch (IOException | RuntimeException e) {
      return false; // refused (a holder killed with -9 left its socket), or closed by close()
    } finally {
      watching = null;
    }
  }

  /**
   * Waits until the process that holds the lock ends, then holds it. Returns false when {@link
   * #close()} ended the wait first. It looks every {@value #LOOK_AGAIN_MILLIS} ms rather than block
   * in the kernel: a process blocked on one lock of the home while it holds another (a write of
   * {@code state.json} by an engine beside) is what the kernel's deadlock check refuses, with
   * EDEADLK, to the other engine's write.
   */
  boolean acquire() throws IOException {
    while (true) {
      try {
        if (tryAcquire()) {
          return true;
        }
      } catch (ClosedChannelException e) {
        return false;
      }
      if (waitForTheHolder()) {
        continue; // it ended: take the lock now
      }
      try {
        if (closing.await(LOOK_AGAIN_MILLIS, TimeUnit.MILLISECONDS)) {
          return false;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
  }

  /** Says where this process's engine listens; only while it holds the lock. */
  void advertise(String url, Optional<String> certificateSha256) throws IOException {
    if (lock == null) {
      throw new IllegalStateException("the engine lock is not held");
    }
    ObjectNode advert = JSON.createObjectNode();
    advert.put("url", url);
    advert.put("pid", ProcessHandle.current().pid());
    certificateSha256.ifPresent(sha256 -> advert.put("certificate_sha256", sha256));
    AtomicFile.write(home.engineFile(), JSON.writeValueAsBytes(advert));
    advertised = true;
  }

  /**
   * The home's engine, if a live process says where it listens. A file whose writer is gone (killed
   * before it could remove it) says nothing.
   */
  static Optional<Advert> current(CliqueHome home) {
    JsonNode advert;
    try {
      advert = JSON.readTree(Files.readAllBytes(home.engineFile()));
    } catch (IOException e) {
      return Optional.empty();
    }
    String url = advert.path("url").asText("");
    long pid = advert.path("pid").asLong(-1);
    if (url.isEmpty()
        || pid <= 0
        || !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
      return Optional.empty();
    }
    return Optional.of(new Advert(url, pid, advert.path("certificate_sha256").asText("")));
  }

  /** Stops saying where the engine listens, lets go of the lock, or ends a wait for it. */
  @Override
  public void close() {
    closing.countDown();
    SocketChannel waiting = watching;
    if (waiting != null) {
      try {
        waiting.close(); // ends a wait for the holder
      } catch (IOException e) {
        // ending anyway
      }
    }
    Heartbeat beating = heartbeat;
    if (beating != null) {
      heartbeat = null;
      beating.close();
    }
    if (advertised) {
      advertised = false;
      forget();
    }
    try {
      channel.close(); // releases the lock
    } catch (IOException e) {
      // the process is ending: the kernel lets go of the lock anyway
    }
  }

  private void forget() {
    try {
      Files.deleteIfExists(home.engineFile());
      Files.deleteIfExists(AtomicFile.backupOf(home.engineFile()));
    } catch (IOException e) {
      // a stale file names a pid that is gone, which readers ignore
    }
  }
}
