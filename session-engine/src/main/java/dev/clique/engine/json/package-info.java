/** How the engine writes JSON: one mapper, one number policy, for answers and files. */
package dev.clique.engine.json;
