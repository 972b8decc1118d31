package dev.clique.engine.notify;

import java.time.Instant;

/**
 * How one delivery to a target ended: when, of which event, and what the target answered ({@code
 * delivered}, {@code answered 503}, {@code no answer within 10 s}, ...). Nothing secret: no URL, no
 * header.
 */
public record Delivery(Instant at, String event, boolean delivered, String said) {}
