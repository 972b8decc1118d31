/** The clique command (picocli): one class per subcommand. */
package dev.clique.cli;
