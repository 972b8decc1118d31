package dev.clique.engine.discovery;

/**
 * What a CLI that runs outside tmux says of its own state, with no screen to read and no hook of
 * clique's: read from what it records by itself.
 *
 * @param state {@code working}, {@code waiting} or {@code idle}, as the API names states
 * @param attentionKind for {@code waiting}, why ({@code permission}, ...); else null
 * @param attentionDetail for {@code waiting}, the CLI's own words; else null
 * @param sinceMillis when the CLI recorded it, unix milliseconds (0 when it did not say)
 * @param authority what decided ({@code registry}, {@code transcript}, {@code process})
 * @param evidence what was read, in words
 */
public record OwnState(
    String state,
    String attentionKind,
    String attentionDetail,
    long sinceMillis,
    String authority,
    String evidence) {}
