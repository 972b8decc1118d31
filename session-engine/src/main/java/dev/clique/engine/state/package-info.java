/** Session states and how they are decided. */
package dev.clique.engine.state;
