/**
 * Session states and how they are decided: {@link dev.clique.engine.state.StateDetector} (time,
 * output, who holds a shell's terminal, attention signals) and {@link
 * dev.clique.engine.state.ScreenReader} (what the last lines of a screen say).
 */
package dev.clique.engine.state;
