package dev.clique.engine.discovery;

/**
 * Where a CLI that runs outside tmux runs: its terminal, and the program that draws it where the
 * process's ancestors tell.
 *
 * @param tty the terminal device ({@code /dev/pts/3}), null for a process without one
 * @param program the terminal's program ({@code VS Code}, {@code kitty}, ...), null when unknown
 */
public record Terminal(String tty, String program) {}
