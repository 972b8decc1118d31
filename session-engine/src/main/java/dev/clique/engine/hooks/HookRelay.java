package dev.clique.engine.hooks;

import java.nio.file.Path;

/**
 * The shell commands of clique's command hooks. For a session the engine started (Codex's hooks):
 * it hands the event it gets on stdin to the engine as the body of a POST, with curl. The session's
 * token goes from the pane's environment into curl's config, which curl reads from its own stdin:
 * the token is in no argv and no file. A hook that cannot reach the engine (no curl, the engine
 * gone) prints nothing and exits 0, so the CLI carries on and the pane decides.
 *
 * <p>For a CLI a person runs themselves, with the hooks {@code clique hooks install} put in their
 * own settings ({@link #toOperatorSocket}): the event goes to the engine of their home over its
 * operator socket, which needs no token, with the pid of the process that ran the hook.
 */
final class HookRelay {
  /** curl's limit: the engine answers a hook at once, on loopback. */
  static final int MAX_SECONDS = 2;

  private HookRelay() {}

  /** The relay to {@code url}, the engine's hook route for one session. */
  static String command(String url) {
    return "exec 3<&0; printf 'header = \"Authorization: Bearer %s\"\\n' \"$"
        + ClaudeHooks.TOKEN_VARIABLE
        + "\" | curl -s -m "
        + MAX_SECONDS
        + " --noproxy '*' -o /dev/null -K - -H 'Content-Type: application/json'"
        + " --data-binary @/dev/fd/3 '"
        + url
        + "' || true";
  }

  /**
   * What a person's hook of {@code cli} runs: the event on stdin to {@code POST
   * /api/hooks/{cli}?pid=$PPID} over {@code socket}. Inside a session the engine started ({@code
   * CLIQUE_SESSION} set) its own hooks report, and with no socket there is no engine: the event is
   * read and dropped, with no process but {@code cat}. It prints nothing and exits 0 whatever
   * happens.
   */
  static String toOperatorSocket(String cli, Path socket) {
    String quoted = shellQuoted(socket.toString());
    return "if [ -z \"$CLIQUE_SESSION\" ] && [ -S "
        + quoted
        + " ]; then curl -s -m "
        + MAX_SECONDS
        + " --noproxy '*' -o /dev/null --unix-socket "
        + quoted
        + " -H 'Content-Type: application/json' --data-binary @- \""
        + OPERATOR_URL
        + cli
        + "?pid=$PPID\"; else cat >/dev/null; fi 2>/dev/null; exit 0";
  }

  /** The URL of those reports, by which clique's hooks are told from a person's own. */
  static final String OPERATOR_URL = "http://localhost/api/hooks/";

  private static String shellQuoted(String text) {
    return "'" + text.replace("'", "'\\''") + "'";
  }
}
