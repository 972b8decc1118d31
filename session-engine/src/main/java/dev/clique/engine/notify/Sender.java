package dev.clique.engine.notify;

/** Delivers a notice to one target, once; its {@link Lane} decides about trying again. */
interface Sender {
  Outcome send(Notice notice) throws InterruptedException;
}
