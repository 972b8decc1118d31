package dev.clique.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clique.engine.discovery.Discovery;
import dev.clique.engine.discovery.DiscoverySettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EngineSettingsTest {
  private static final Path USER = Path.of("/home/dev");

  private static EngineSettings of(Map<String, String> env) {
    return EngineSettings.builder().environment(env).userHome(USER).build();
  }

  @Test
  void anEmptyEnvironmentGivesTheDefaults() {
    EngineSettings settings = of(Map.of());
    assertThat(settings.home().dir()).isEqualTo(USER.resolve(".clique"));
    assertThat(settings.userHome()).isEqualTo(USER);
    assertThat(settings.tmuxSocket()).isEqualTo("clique");
    assertThat(settings.allowedHosts()).isEmpty();
    assertThat(settings.discovery().enabled()).isTrue();
    assertThat(settings.discovery().shells()).isFalse();
    assertThat(settings.discovery().socketDirectory())
        .isEqualTo(Path.of("/tmp", "tmux-" + Discovery.currentUid()));
    assertThat(settings.discovery().extraSockets()).isEmpty();
    assertThat(settings.transcriptRoots().claudeConfigDir()).isEqualTo(USER.resolve(".claude"));
    assertThat(settings.path()).isEmpty();
  }

  @Test
  void eachVariableSetsItsValue() {
    EngineSettings settings =
        of(
            Map.ofEntries(
                Map.entry("CLIQUE_HOME", "/srv/clique"),
                Map.entry("HOME", "/home/other"),
                Map.entry("CLIQUE_TMUX_SOCKET", " clique-env-check "),
                Map.entry("CLIQUE_ALLOWED_HOSTS", "panel.lan, .tail.net,"),
                Map.entry("CLIQUE_DISCOVER_SHELLS", "on"),
                Map.entry("CLIQUE_DISCOVER_SOCKETS", "/home/dev/a.sock, /home/dev/b.sock"),
                Map.entry("TMUX_TMPDIR", "/home/dev/tmp"),
                Map.entry("CODEX_HOME", "/srv/codex"),
                Map.entry("PATH", "/usr/bin:/bin")));
    assertThat(settings.home().dir()).isEqualTo(Path.of("/srv/clique"));
    assertThat(settings.userHome()).isEqualTo(Path.of("/home/other"));
    assertThat(settings.tmuxSocket()).isEqualTo("clique-env-check");
    assertThat(settings.allowedHosts()).containsExactly("panel.lan", ".tail.net");
    DiscoverySettings discovery = settings.discovery();
    assertThat(discovery.shells()).isTrue();
    assertThat(discovery.socketDirectory())
        .hasToString("/home/dev/tmp/tmux-" + Discovery.currentUid());
    assertThat(discovery.extraSockets())
        .containsExactly(Path.of("/home/dev/a.sock"), Path.of("/home/dev/b.sock"));
    assertThat(settings.transcriptRoots().codexHome()).isEqualTo(Path.of("/srv/codex"));
    assertThat(settings.transcriptRoots().claudeConfigDir())
        .as("the CLIs' defaults follow HOME")
        .isEqualTo(Path.of("/home/other/.claude"));
    assertThat(settings.path()).isEqualTo("/usr/bin:/bin");
  }

  @Test
  void blankValuesCountAsUnset() {
    EngineSettings settings =
        of(Map.of("CLIQUE_HOME", " ", "HOME", "", "CLIQUE_TMUX_SOCKET", "  ", "TMUX_TMPDIR", " "));
    assertThat(settings.home().dir()).isEqualTo(USER.resolve(".clique"));
    assertThat(settings.userHome()).isEqualTo(USER);
    assertThat(settings.tmuxSocket()).isEqualTo("clique");
    assertThat(settings.discovery().socketDirectory().getParent()).isEqualTo(Path.of("/tmp"));
  }

  @Test
  void discoveryIsTurnedOffByAnyOfItsNoWords() {
    for (String no : List.of("off", "0", "false", "NO", " Off ")) {
      assertThat(of(Map.of("CLIQUE_DISCOVER", no)).discovery().enabled()).as(no).isFalse();
    }
    assertThat(of(Map.of("CLIQUE_DISCOVER", "on")).discovery().enabled()).isTrue();
  }

  @Test
  void sessionsOutsideTmuxAreLookedForUnlessOffAndHeadlessOnesOnlyWhenAskedFor() {
    DiscoverySettings plain = of(Map.of("HOME", "/home/dev")).discovery();
    assertThat(plain.outside()).isTrue();
    assertThat(plain.headless()).isFalse();
    assertThat(plain.claudeRegistries()).containsExactly(Path.of("/home/dev/.claude/sessions"));
    DiscoverySettings own =
        of(Map.of(
                "CLIQUE_DISCOVER_OUTSIDE", "off",
                "CLIQUE_DISCOVER_HEADLESS", "on",
                "CLAUDE_CONFIG_DIR", "/srv/claude"))
            .discovery();
    assertThat(own.outside()).isFalse();
    assertThat(own.headless()).isTrue();
    assertThat(own.claudeRegistries()).containsExactly(Path.of("/srv/claude/sessions"));
  }

  @Test
  void whatTheBuilderSetsWinsOverTheEnvironment() {
    EngineSettings settings =
        EngineSettings.builder()
            .tmuxSocket("clique-given")
            .environment(Map.of("CLIQUE_TMUX_SOCKET", "clique-env", "CLIQUE_DISCOVER", "on"))
            .home(Path.of("/srv/given"))
            .discovery(DiscoverySettings.off())
            .allowedHosts(List.of("panel.lan"))
            .build();
    assertThat(settings.tmuxSocket()).isEqualTo("clique-given");
    assertThat(settings.home().dir()).isEqualTo(Path.of("/srv/given"));
    assertThat(settings.discovery().enabled()).isFalse();
    assertThat(settings.allowedHosts()).containsExactly("panel.lan");
  }

  @Test
  void newBuilderChangesOneValueAndKeepsTheRest() {
    EngineSettings first = of(Map.of("CLIQUE_HOME", "/srv/clique", "PATH", "/bin"));
    EngineSettings second = first.newBuilder().tmuxSocket("clique-other").build();
    assertThat(second.tmuxSocket()).isEqualTo("clique-other");
    assertThat(second.home().dir()).isEqualTo(Path.of("/srv/clique"));
    assertThat(second.userHome()).isEqualTo(USER);
    assertThat(second.path()).isEqualTo("/bin");
  }
}
