/** The CLI catalogue (clis.toml): how each coding CLI is started and recognised. */
package dev.clique.engine.catalogue;
