/**
 * The CLIs' own signals: what each CLI's hook events mean as a state ({@link
 * dev.clique.engine.hooks.HookDialect}), and the settings that make a CLI the engine starts send
 * them to {@code POST /api/sessions/{id}/hook}.
 */
package dev.clique.engine.hooks;
