/**
 * Reading a coding CLI's own conversation: what the person typed and the assistant's prose, oldest
 * first, from a bounded tail of the transcript file that Claude Code, Codex or Gemini CLI writes;
 * and what the session used, from the same file: tokens summed over the conversation, the context
 * the last request filled, the usage limits the CLI was told of.
 *
 * <p>{@link dev.clique.engine.transcript.Transcripts} is the entry point; {@link
 * dev.clique.engine.transcript.TranscriptRoots}, {@link
 * dev.clique.engine.transcript.TranscriptRequest}, {@link dev.clique.engine.transcript.Turn},
 * {@link dev.clique.engine.transcript.UsageReport}, {@link dev.clique.engine.transcript.Usage},
 * {@link dev.clique.engine.transcript.Limits} and {@link dev.clique.engine.transcript.CostBasis}
 * are its vocabulary, and {@link dev.clique.engine.transcript.CostEstimate} prices a usage as its
 * CLI's records mean their counts. Everything else is package-private: one locator (finds the file)
 * and one reader (turns lines into entries, entries into turns) per CLI, and the tail cache that
 * reads a file backwards from its end until it holds enough turns, never more than a budget however
 * large the file grows, and nothing at all while it is unchanged. Usage needs every line rather
 * than a tail: one usage reader per CLI keeps a running tally of each file, advanced from where the
 * last read stopped as the file grows. A record a reader knows to be a prompt or an answer but
 * whose content it does not know ({@code UnknownRecordException}) makes the conversation an {@link
 * dev.clique.engine.transcript.UnreadableTranscriptException}, never turns without it.
 */
package dev.clique.engine.transcript;
