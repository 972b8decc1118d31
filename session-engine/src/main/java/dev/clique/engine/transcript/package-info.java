/**
 * Reading a coding CLI's own conversation: what the person typed and the assistant's prose, oldest
 * first, from a bounded tail of the transcript file that Claude Code, Codex or Gemini CLI writes.
 *
 * <p>{@link dev.clique.engine.transcript.Transcripts} is the entry point; {@link
 * dev.clique.engine.transcript.TranscriptRoots}, {@link
 * dev.clique.engine.transcript.TranscriptRequest} and {@link dev.clique.engine.transcript.Turn} are
 * its vocabulary. Everything else is package-private: one locator (finds the file) and one reader
 * (turns lines into entries, entries into turns) per CLI, and the tail cache that reads a file
 * backwards from its end until it holds enough turns, never more than a budget however large the
 * file grows, and nothing at all while it is unchanged.
 */
package dev.clique.engine.transcript;
