package dev.clique.engine.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HostGuardTest {
  private final HostGuard guard = new HostGuard(List.of("panel.lan", " .tail.net"));

  @ParameterizedTest
  @ValueSource(
      strings = {
        "localhost",
        "localhost:3200",
        "127.0.0.1",
        "127.0.0.1:3200",
        "[::1]",
        "[::1]:3200",
        "10.1.2.3:80",
        "panel.lan",
        "PANEL.LAN:3200",
        "box.tail.net",
        "tail.net"
      })
  void theseHostsAreServed(String host) {
    assertThat(guard.allows(host)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "evil.com",
        "evil.com:3200",
        "evil.com@127.0.0.1",
        "127.0.0.1@evil.com",
        "localhost.evil.com",
        "panel.lan.evil.com",
        "nottail.net",
        "[::1",
        "localhost:http",
        "[::1]x"
      })
  void theseHostsAreRefused(String host) {
    assertThat(guard.allows(host)).isFalse();
  }

  @org.junit.jupiter.api.Test
  void noHostIsRefused() {
    assertThat(guard.allows(null)).isFalse();
  }
}
