package dev.clique.engine.notify;

import dev.clique.engine.session.SessionView;
import dev.clique.engine.state.StateSource;
import dev.clique.engine.state.Verdict;
import java.util.List;

/** Sessions as the state shows them, made for the rules and formats to read. */
final class Views {
  private Views() {}

  static SessionView view(String id, String name, String state) {
    return view(id, name, "shell", state, null, null, new SessionView.SourceView("pane", "quiet"));
  }

  static SessionView waiting(String id, String name, String kind, String detail) {
    return view(
        id,
        name,
        "shell",
        "waiting",
        new SessionView.AttentionView(kind, detail, 1_700_000_000.0, null),
        null,
        new SessionView.SourceView("pane", "generic question"));
  }

  static SessionView usageLimit(String id, String resetsAt) {
    return view(
        id,
        id,
        "claude",
        "waiting",
        new SessionView.AttentionView(
            "usage_limit", "You've hit your limit", 1_700_000_000.0, resetsAt),
        null,
        new SessionView.SourceView("hook", "usage limit"));
  }

  /** A session whose CLI exited by itself: tmux kept its dead pane. */
  static SessionView exited(String id, int status) {
    return view(
        id,
        id,
        "shell",
        "stopped",
        null,
        status,
        new SessionView.SourceView(StateSource.PROCESS, "exited with status " + status));
  }

  /** A session stopped through clique: its tmux session is gone. */
  static SessionView killed(String id) {
    return view(
        id,
        id,
        "shell",
        "stopped",
        null,
        null,
        new SessionView.SourceView(
            Verdict.STOPPED.source().authority(), Verdict.STOPPED.source().evidence()));
  }

  static SessionView view(
      String id,
      String name,
      String cli,
      String state,
      SessionView.AttentionView attention,
      Integer exitStatus,
      SessionView.SourceView source) {
    return new SessionView(
        id,
        name,
        cli,
        cli.substring(0, 1).toUpperCase() + cli.substring(1),
        null,
        "/home/someone/project",
        "project",
        null,
        null,
        1_700_000_000.0,
        !"stopped".equals(state),
        false,
        null,
        0,
        80,
        24,
        "working".equals(state),
        "none",
        "",
        state,
        0,
        null,
        0,
        attention,
        source,
        exitStatus,
        null,
        null,
        List.of(),
        null,
        null);
  }
}
