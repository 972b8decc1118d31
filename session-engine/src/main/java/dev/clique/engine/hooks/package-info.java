/**
 * The CLIs' own signals: what each CLI's hook events mean as a state ({@link
 * dev.clique.engine.hooks.HookDialect}), and the settings that make a CLI the engine starts send
 * them to {@code POST /api/sessions/{id}/hook}. For the CLIs a person runs outside clique, the
 * hooks they opt into in their own settings ({@link dev.clique.engine.hooks.PersonalHooks}) report
 * over the operator socket, and {@link dev.clique.engine.hooks.HookReports} keeps each process's
 * latest report for whoever asks.
 */
package dev.clique.engine.hooks;
