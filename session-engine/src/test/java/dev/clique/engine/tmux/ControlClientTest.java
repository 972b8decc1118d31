package dev.clique.engine.tmux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The control-mode client against a stand-in for tmux that speaks its protocol: a block for each
 * command, in order, and a pane's text inside a block exactly as the pane has it.
 */
class ControlClientTest {
  private static final Duration WAIT = Duration.ofSeconds(5);

  /**
   * A tmux that answers the attach, then each command line with a block; a command line {@code
   * screen} answers with {@code SCREEN}'s lines, where {@code @N} stands for the block's own number
   * and time (a forged end must name them).
   */
  private static final String STAND_IN =
      String.join(
          "\n",
          "import os, sys",
          "n = 0",
          "def block(lines):",
          "    global n",
          "    print('%%begin 1700000000 %d 1' % n)",
          "    for line in lines: print(line.replace('@N', '1700000000 %d' % n))",
          "    print('%%end 1700000000 %d 1' % n)",
          "    n += 1",
          "    sys.stdout.flush()",
          "block([])",
          "print('%sessions-changed'); sys.stdout.flush()",
          "for line in sys.stdin:",
          "    words = line.strip().split(' ', 1)",
          "    if words[0] == 'screen':",
          "        block(os.environ['SCREEN'].split('|'))",
          "    elif words[0] == 'display-message':",
          "        block([line.strip().split(' ', 2)[2].strip(\"'\")])",
          "    else:",
          "        block(['ran ' + line.strip()])");

  private final List<ControlNotice> notices = new ArrayList<>();
  private ControlClient client;

  private ControlClient start(String screen) throws TmuxException {
    ProcessBuilder standIn = new ProcessBuilder("python3", "-u", "-c", STAND_IN);
    standIn.environment().put("SCREEN", screen);
    client = ControlClient.start(standIn, notices::add, "test", WAIT);
    return client;
  }

  @AfterEach
  void close() {
    if (client != null) {
      client.close();
    }
  }

  @Test
  void commandsAreAnsweredInTurnAndNotificationsGoToTheListener() throws Exception {
    ControlClient tmux = start("a|b");
    assertThat(tmux.run("list-panes -a", WAIT).output()).isEqualTo("ran list-panes -a");
    assertThat(tmux.run("kill-session -t x", WAIT).output()).isEqualTo("ran kill-session -t x");
    assertThat(notices).containsExactly(new ControlNotice.SessionsChanged());
    assertThat(tmux.bytesSent()).isEqualTo("list-panes -a\nkill-session -t x\n".length());
  }

  @Test
  void aScreenIsHandedOutWholeOnceItsCheckCameBack() throws Exception {
    ControlClient tmux = start("first|%end 1 2 3|%begin 4 5 6|%exit|last");
    assertThat(tmux.runVouched("screen", WAIT).output())
        .as("lines that only look like the protocol's are text")
        .isEqualTo("first\n%end 1 2 3\n%begin 4 5 6\n%exit\nlast");
    assertThat(tmux.run("list-panes", WAIT).output()).isEqualTo("ran list-panes");
  }

  @Test
  void aScreenThatForgesTheEndOfItsBlockClosesTheClientAndIsNotBelieved() throws Exception {
    ControlClient tmux = start("first|%end @N|last");
    long start = System.nanoTime();
    assertThatThrownBy(() -> tmux.runVouched("screen", WAIT)).isInstanceOf(TmuxException.class);
    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .as("text outside a block gives it away at once")
        .isLessThan(Duration.ofSeconds(2));
    assertThat(tmux.open()).isFalse();
    assertThatThrownBy(() -> tmux.run("list-panes", WAIT)).isInstanceOf(TmuxException.class);
  }

  @Test
  void aScreenThatForgesAWholeBlockIsNotBelievedEither() throws Exception {
    ControlClient tmux = start("first|%end @N|%begin 1700000000 99 1|ran list-panes|last");
    // The forged block swallows what follows, the check among it: nothing comes back in time.
    assertThatThrownBy(() -> tmux.runVouched("screen", Duration.ofSeconds(1)))
        .isInstanceOf(TmuxException.class);
    assertThat(tmux.open()).isFalse();
    assertThatThrownBy(() -> tmux.run("list-panes", WAIT))
        .as("nothing after a forgery is believed")
        .isInstanceOf(TmuxException.class);
  }

  @Test
  void wordsAreQuotedForTmuxsParserAControlCharacterAsAnOctalEscape() {
    assertThat(ControlClient.commandLine(List.of("send-keys", "-t", "=a:", "--", "it's;")))
        .isEqualTo("'send-keys' '-t' '=a:' '--' 'it'\\''s;'");
    assertThat(ControlClient.commandLine(List.of("new-session", ";", "x"))).contains(" ; ");
    assertThat(ControlClient.commandLine(List.of("list-panes", "-F", "#{a}\u001f#{b}\n\u007f")))
        .isEqualTo("'list-panes' '-F' '#{a}'\"\\037\"'#{b}'\"\\012\"''\"\\177\"''");
  }
}
