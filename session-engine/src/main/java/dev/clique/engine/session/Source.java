package dev.clique.engine.session;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Where a session clique did not start runs: one pane of another tmux server.
 *
 * @param socket the path of the server's socket file
 * @param session the tmux session's name
 * @param window the index of the pane's window
 * @param pane the pane id ({@code %12}), which the engine's calls target
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.ALWAYS)
public record Source(
    @JsonProperty("socket") String socket,
    @JsonProperty("session") String session,
    @JsonProperty("window") int window,
    @JsonProperty("pane") String pane) {}
