package dev.clique.engine.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The DNS-rebinding guard: a request is served only when its {@code Host} names this machine
 * (loopback names, a bare IPv4) or a name listed in {@code CLIQUE_ALLOWED_HOSTS}.
 */
public final class HostGuard {
  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

  private final List<String> exact = new ArrayList<>();
  private final List<String> suffixes = new ArrayList<>();

  public HostGuard(List<String> allowed) {
    for (String entry : allowed) {
      String name = entry.strip().toLowerCase(Locale.ROOT);
      if (name.isEmpty()) {
        continue;
      }
      if (name.startsWith(".")) {
        suffixes.add(name);
      } else {
        exact.add(name);
      }
    }
  }

  public boolean allows(String hostHeader) {
    if (hostHeader == null || hostHeader.isBlank() || hostHeader.contains("@")) {
      return false;
    }
    String name = hostName(hostHeader.strip().toLowerCase(Locale.ROOT));
    if (name == null || name.isEmpty()) {
      return false;
    }
    if (name.equals("localhost") || name.equals("::1") || name.equals("127.0.0.1")) {
      return true;
    }
    if (IPV4.matcher(name).matches()) {
      return true;
    }
    if (exact.contains(name)) {
      return true;
    }
    for (String suffix : suffixes) {
      if (name.endsWith(suffix) || name.equals(suffix.substring(1))) {
        return true;
      }
    }
    return false;
  }

  /** The name part of a Host header: {@code [::1]:3200} gives {@code ::1}; null when malformed. */
  private static String hostName(String host) {
    if (host.startsWith("[")) {
      int close = host.indexOf(']');
      if (close < 0) {
        return null;
      }
      String rest = host.substring(close + 1);
      if (!rest.isEmpty() && !rest.matches(":\\d{1,5}")) {
        return null;
      }
      return host.substring(1, close);
    }
    int colon = host.indexOf(':');
    if (colon >= 0) {
      if (host.indexOf(':', colon + 1) >= 0) {
        return host; // a bare IPv6 literal without brackets
      }
      String port = host.substring(colon + 1);
      if (!port.matches("\\d{1,5}")) {
        return null;
      }
      return host.substring(0, colon);
    }
    return host;
  }
}
