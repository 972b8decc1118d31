package dev.clique.client.internal;

import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.clique.client.CliqueClient;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.util.HashMap;
import java.util.Map;
import okhttp3.ConnectionSpec;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The OkHttp client underneath: no proxy, no redirect, shared pools, no per-read time-out. */
class HttpClientSettingsTest {
  private static final String TOKEN = "mxp_Zk3pQ9rT7vW2xY5aB8cD1eF4gH6iJ0kL3mN5oP7qR9s";
  private static final String[] PROXY_PROPERTIES = {
    "http.proxyHost", "http.proxyPort", "http.nonProxyHosts", "https.proxyHost", "https.proxyPort"
  };

  @RegisterExtension
  static WireMockExtension engine =
      WireMockExtension.newInstance()
          .options(WireMockConfiguration.wireMockConfig().dynamicPort().bindAddress("127.0.0.1"))
          .build();

  @RegisterExtension
  static WireMockExtension proxy =
      WireMockExtension.newInstance()
          .options(WireMockConfiguration.wireMockConfig().dynamicPort().bindAddress("127.0.0.1"))
          .build();

  private static OkHttpClient underneath(CliqueClient client) {
    return ((HttpCliqueClient) client).okHttpClient();
  }

  @Test
  void theBuiltClientUsesNoProxyFollowsNoRedirectAndTimesEachCallItself() {
    OkHttpClient http =
        underneath(CliqueClient.builder().baseUrl(engine.baseUrl()).token(TOKEN).build());

    assertThat(http.proxy()).isEqualTo(Proxy.NO_PROXY);
    assertThat(http.followRedirects()).isFalse();
    assertThat(http.followSslRedirects()).isFalse();
    assertThat(http.readTimeoutMillis()).isZero();
    assertThat(http.callTimeoutMillis()).isZero();
    assertThat(http.dispatcher().getMaxRequestsPerHost())
        .isEqualTo(GetOnlyHttp.MAX_CONCURRENT_CALLS);
  }

  @Test
  void anHttpEngineGetsAClientWithoutTlsAndAnHttpsOneWithIt() {
    OkHttpClient plain =
        underneath(CliqueClient.builder().baseUrl("http://127.0.0.1:3200").token(TOKEN).build());
    assertThat(plain.connectionSpecs()).containsExactly(ConnectionSpec.CLEARTEXT);
    OkHttpClient tls =
        underneath(CliqueClient.builder().baseUrl("https://clique.example").token(TOKEN).build());
    assertThat(tls.connectionSpecs()).anyMatch(ConnectionSpec::isTls);
  }

  @Test
  void aCallersOwnClientIsSharedButStillGetsNoProxyAndNoRedirect() {
    OkHttpClient callers =
        new OkHttpClient.Builder()
            .proxy(new Proxy(Proxy.Type.HTTP, new InetSocketAddress("127.0.0.1", proxy.getPort())))
            .followRedirects(true)
            .followSslRedirects(true)
            .build();

    OkHttpClient http =
        underneath(
            CliqueClient.builder()
                .baseUrl(engine.baseUrl())
                .token(TOKEN)
                .okHttpClient(callers)
                .build());

    assertThat(http.proxy()).isEqualTo(Proxy.NO_PROXY);
    assertThat(http.followRedirects()).isFalse();
    assertThat(http.followSslRedirects()).isFalse();
    assertThat(http.connectionPool()).isSameAs(callers.connectionPool());
    assertThat(http.dispatcher()).isSameAs(callers.dispatcher());
    assertThat(callers.proxy()).isNotEqualTo(Proxy.NO_PROXY);
  }

  @Test
  void proxySystemPropertiesAreIgnored() throws Exception {
    engine.stubFor(get(anyUrl()).willReturn(okJson("{\"ok\": true}")));
    proxy.stubFor(get(anyUrl()).willReturn(okJson("{\"ok\": true}")));
    Map<String, String> saved = new HashMap<>();
    for (String key : PROXY_PROPERTIES) {
      saved.put(key, System.getProperty(key));
    }
    try {
      System.setProperty("http.proxyHost", "127.0.0.1");
      System.setProperty("http.proxyPort", Integer.toString(proxy.getPort()));
      System.setProperty("https.proxyHost", "127.0.0.1");
      System.setProperty("https.proxyPort", Integer.toString(proxy.getPort()));
      // The JDK skips the proxy for loopback unless this is set and empty; the proxy must be live.
      System.setProperty("http.nonProxyHosts", "");
      String url = "http://127.0.0.1:" + engine.getPort();

      // Control: an ordinary OkHttp client does go through the proxy these properties name.
      try (Response response =
          new OkHttpClient()
              .newCall(new Request.Builder().url(url + "/healthz").build())
              .execute()) {
        assertThat(response.code()).isEqualTo(200);
      }
      assertThat(proxy.getAllServeEvents()).hasSize(1);
      assertThat(engine.getAllServeEvents()).isEmpty();

      CliqueClient.builder().baseUrl(url).token(TOKEN).build().health();

      assertThat(engine.getAllServeEvents()).hasSize(1);
      assertThat(proxy.getAllServeEvents()).hasSize(1);
    } finally {
      saved.forEach(
          (key, value) -> {
            if (value == null) {
              System.clearProperty(key);
            } else {
              System.setProperty(key, value);
            }
          });
    }
  }
}
