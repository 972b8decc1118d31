package dev.clique.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clique.client.CliqueClient;
import dev.clique.client.Session;
import dev.clique.fake.FakeEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The engines file: what it may say, what it refuses, and never a token in what it says. */
class EnginesFileTest {
  private static final String CLAUDE_ID = "3f2b8c1e-5a47-4d0e-9b6f-2c81d4e7a915";
  private static final String TOKEN_A = "mxp_AAAApQ9rT7vW2xY5aB8cD1eF4gH6iJ0kL3mN5oP7qR9s";
  private static final String TOKEN_B = "mxp_BBBBpQ9rT7vW2xY5aB8cD1eF4gH6iJ0kL3mN5oP7qR9s";

  @TempDir Path home;
  private FakeEngine a;
  private FakeEngine b;

  @BeforeEach
  void engines() throws IOException {
    a = FakeEngine.start().servingTheContract(FakeEngine.ANY);
    b = FakeEngine.start().servingTheContract(FakeEngine.ANY);
  }

  @AfterEach
  void stop() {
    a.close();
    b.close();
  }

  private Path write(String name, String text, String mode) throws IOException {
    Path file = home.resolve(name);
    Files.writeString(file, text);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
    return file;
  }

  @Test
  void anEngineTakesItsTokenFromAVariableOrAPrivateFileAndOnlyItsOwn() throws Exception {
    write("box.token", TOKEN_B + "\n", "rw-------");
    Path file =
        write(
            "engines.toml",
            "[engines.laptop]\nurl = \""
                + a.url()
                + "\"\ntoken_env = \"CLIQUE_TOKEN_LAPTOP\"\n\n[engines.box]\nurl = \""
                + b.url()
                + "\"\ntoken_file = \"box.token\"\ntimeout = 2.5\n",
            "rw-------");

    CliqueClient client = EnginesFile.read(file, Map.of("CLIQUE_TOKEN_LAPTOP", TOKEN_A));

    assertThat(client.sessions())
        .extracting(Session::id)
        .contains("laptop:" + CLAUDE_ID, "box:" + CLAUDE_ID);
    assertThat(a.requests)
        .allSatisfy(r -> assertThat(r.header("authorization")).isEqualTo("Bearer " + TOKEN_A));
    assertThat(b.requests)
        .allSatisfy(r -> assertThat(r.header("authorization")).isEqualTo("Bearer " + TOKEN_B));
    assertThat(client.toString()).isEqualTo("CliqueClient{engines=[laptop, box]}");
  }

  @Test
  void aFileOthersMayReadIsRefusedSayingHowToMendIt() throws Exception {
    Path file =
        write(
            "engines.toml",
            "[engines.a]\nurl = \"" + a.url() + "\"\ntoken_env = \"T\"\n",
            "rw-r--r--");

    assertThatThrownBy(() -> EnginesFile.read(file, Map.of("T", TOKEN_A)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("can be read by others than its owner (mode rw-r--r--)")
        .hasMessageContaining("chmod 600 " + file);
  }

  @Test
  void aTokenFileOthersMayReadIsRefused() throws Exception {
    write("a.token", TOKEN_A, "rw-rw----");
    Path file =
        write(
            "engines.toml",
            "[engines.a]\nurl = \"" + a.url() + "\"\ntoken_file = \"a.token\"\n",
            "rw-------");

    assertThatThrownBy(() -> EnginesFile.read(file, Map.of()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("the token file of [engines.a]")
        .hasMessageContaining("chmod 600")
        .hasMessageNotContaining(TOKEN_A);
  }

  @Test
  void whatTheFileGetsWrongIsNamedWithItsEngineAndNeverAToken() throws Exception {
    Map<String, String> env = Map.of("T", TOKEN_A);
    String url = "url = \"" + a.url() + "\"\n";
    String[][] cases = {
      {"", "names no engine"},
      {"title = 1\n", "has `title` at its top"},
      {"[engines.a]\n" + url, "needs exactly one of token_env"},
      {
        "[engines.a]\n" + url + "token_env = \"T\"\ntoken_file = \"x\"\n",
        "needs exactly one of token_env"
      },
      {"[engines.a]\ntoken_env = \"T\"\n", "[engines.a] has no url"},
      {
        "[engines.a]\n" + url + "token_env = \"UNSET\"\n",
        "takes its token from UNSET, which is not set"
      },
      {
        "[engines.a]\n" + url + "token_env = \"T\"\ntoken = \"" + TOKEN_A + "\"\n",
        "has `token`: its keys are"
      },
      {
        "[engines.a]\n" + url + "token_env = \"T\"\ntimeout = -1\n",
        "timeout must be a number of seconds"
      },
      {
        "[engines.a]\nurl = \"ftp://x\"\ntoken_env = \"T\"\n", "[engines.a]: the clique URL must be"
      },
      {"[engines.\"a:b\"]\n" + url + "token_env = \"T\"\n", "is not an engine name"},
      {"[engines.a\n", "is not valid TOML"},
    };
    for (String[] c : cases) {
      Path file = write("engines.toml", c[0], "rw-------");
      assertThatThrownBy(() -> EnginesFile.read(file, env))
          .as(c[0])
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith(file + ": ")
          .hasMessageContaining(c[1])
          .hasMessageNotContaining(TOKEN_A.substring(4));
    }
  }

  @Test
  void aMissingFileOrTokenFileIsAnIoFailureNamingIt() throws Exception {
    assertThatThrownBy(() -> EnginesFile.read(home.resolve("engines.toml"), Map.of()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("engines.toml does not exist");
    Path file =
        write(
            "engines.toml",
            "[engines.a]\nurl = \"" + a.url() + "\"\ntoken_file = \"gone.token\"\n",
            "rw-------");
    assertThatThrownBy(() -> EnginesFile.read(file, Map.of()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("gone.token does not exist: write that engine's read-only token");
  }

  @Test
  void anotherMachinesPlainHttpNeedsSayingSoAndAPinMustBeAFingerprint() throws Exception {
    Map<String, String> env = Map.of("T", TOKEN_A);
    Path refused =
        write(
            "engines.toml",
            "[engines.lab]\nurl = \"http://10.0.0.7:3200\"\ntoken_env = \"T\"\n",
            "rw-------");
    assertThatThrownBy(() -> EnginesFile.read(refused, env))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(refused + ": [engines.lab]: ")
        .hasMessageContaining("https://")
        .hasMessageContaining("allow_plain_http = true in [engines.lab]")
        .hasMessageNotContaining(TOKEN_A.substring(4));

    Path allowed =
        write(
            "engines.toml",
            "[engines.lab]\nurl = \"http://10.0.0.7:3200\"\ntoken_env = \"T\"\n"
                + "allow_plain_http = true\n",
            "rw-------");
    assertThat(EnginesFile.read(allowed, env).toString()).isEqualTo("CliqueClient{engines=[lab]}");

    Path notBoolean =
        write(
            "engines.toml",
            "[engines.lab]\nurl = \"http://10.0.0.7:3200\"\ntoken_env = \"T\"\n"
                + "allow_plain_http = \"yes\"\n",
            "rw-------");
    assertThatThrownBy(() -> EnginesFile.read(notBoolean, env))
        .hasMessage(notBoolean + ": [engines.lab] allow_plain_http must be true or false");

    Path badPin =
        write(
            "engines.toml",
            "[engines.box]\nurl = \"https://box.example.org:3200\"\ntoken_env = \"T\"\n"
                + "certificate_sha256 = \"AB:CD\"\n",
            "rw-------");
    assertThatThrownBy(() -> EnginesFile.read(badPin, env))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(badPin + ": [engines.box]: ");
  }
}
