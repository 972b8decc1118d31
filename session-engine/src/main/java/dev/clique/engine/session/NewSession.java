package dev.clique.engine.session;

/** A request to start a session: {@code cli} and {@code cwd} are required. */
public record NewSession(String cli, String cwd, String name, String mode) {}
