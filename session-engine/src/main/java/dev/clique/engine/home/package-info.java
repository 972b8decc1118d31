/** CLIQUE_HOME and its files: private (0700/0600) and written atomically. */
package dev.clique.engine.home;
