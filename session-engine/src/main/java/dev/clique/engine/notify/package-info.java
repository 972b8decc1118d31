/**
 * Tells a person when a session needs them, by webhook or command, and never types into a session.
 *
 * <p>{@link dev.clique.engine.notify.Notifier} reads the targets of {@code
 * $CLIQUE_HOME/notify.toml} ({@code NotifyConfig}: {@code [[webhook]]} in one of four formats,
 * {@code [[command]]}, the {@code [rules]}), again whenever the file changes; follows the engine's
 * {@code ChangeFeed} on a thread of its own and turns what changed into notices ({@code
 * NotifyRules}: {@code waiting}, {@code usage_limit} and {@code error} after a dwell and once per
 * episode, {@code finished} after enough work, {@code stopped} when the CLI ended by itself, bursts
 * joined into one notice); and hands each notice to a {@code Lane} per target: a bounded queue and
 * its own thread, a rate limit, retries with backoff, one log line while a target fails and one
 * when it works again. The watcher that decides the states only raises a flag; nothing here can
 * slow it.
 */
package dev.clique.engine.notify;
