package dev.clique.engine.discovery;

import java.util.List;
import java.util.Map;

/**
 * The program that draws a terminal, named from a process among a CLI's ancestors: an IDE whose
 * terminal it runs in, a terminal emulator, or the ssh server of a remote login. Windows Terminal
 * under WSL is out of reach: its processes are not Linux's.
 */
final class TerminalPrograms {
  /** By command name, as {@code /proc/<pid>/stat} gives it (at most 15 characters). */
  private static final Map<String, String> BY_NAME =
      Map.ofEntries(
          Map.entry("code", "VS Code"),
          Map.entry("code-insiders", "VS Code"),
          Map.entry("codium", "VSCodium"),
          Map.entry("cursor", "Cursor"),
          Map.entry("windsurf", "Windsurf"),
          Map.entry("idea", "IntelliJ IDEA"),
          Map.entry("pycharm", "PyCharm"),
          Map.entry("webstorm", "WebStorm"),
          Map.entry("clion", "CLion"),
          Map.entry("goland", "GoLand"),
          Map.entry("rider", "Rider"),
          Map.entry("phpstorm", "PhpStorm"),
          Map.entry("rubymine", "RubyMine"),
          Map.entry("rustrover", "RustRover"),
          Map.entry("datagrip", "DataGrip"),
          Map.entry("studio", "Android Studio"),
          Map.entry("gnome-terminal-", "GNOME Terminal"),
          Map.entry("gnome-terminal", "GNOME Terminal"),
          Map.entry("kgx", "GNOME Console"),
          Map.entry("ptyxis-agent", "Ptyxis"),
          Map.entry("kitty", "kitty"),
          Map.entry("alacritty", "Alacritty"),
          Map.entry("wezterm-gui", "WezTerm"),
          Map.entry("wezterm-mux-ser", "WezTerm"),
          Map.entry("konsole", "Konsole"),
          Map.entry("xterm", "xterm"),
          Map.entry("urxvt", "urxvt"),
          Map.entry("tilix", "Tilix"),
          Map.entry("terminator", "Terminator"),
          Map.entry("xfce4-terminal", "Xfce Terminal"),
          Map.entry("foot", "foot"),
          Map.entry("ghostty", "Ghostty"),
          Map.entry("screen", "GNU Screen"),
          Map.entry("zellij", "Zellij"),
          Map.entry("sshd", "ssh"));

  private TerminalPrograms() {}

  /**
   * The terminal's program a process with this command name and argv is, or null: a JetBrains IDE
   * may run as {@code java} (its argv names JetBrains), VS Code's server on a remote machine as
   * {@code node} (from {@code .vscode-server}).
   */
  static String of(String name, List<String> argv) {
    String named = BY_NAME.get(name);
    if (named != null) {
      return named;
    }
    String command = String.join(" ", argv);
    if (name.equals("java") && (command.contains("jetbrains") || command.contains("JetBrains"))) {
      return "JetBrains";
    }
    if (command.contains("/.vscode-server/")) {
      return "VS Code";
    }
    return null;
  }
}
