package dev.clique.engine.hooks;

/**
 * The shell command of Codex's command hooks: it hands the event it gets on stdin to the engine as
 * the body of a POST, with curl. The session's token goes from the pane's environment into curl's
 * config, which curl reads from its own stdin: the token is in no argv and no file. A hook that
 * cannot reach the engine (no curl, the engine gone) prints nothing and exits 0, so the CLI carries
 * on and the pane decides.
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
}
