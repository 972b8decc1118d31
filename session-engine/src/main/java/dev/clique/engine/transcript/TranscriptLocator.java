package dev.clique.engine.transcript;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/** Finds the transcript file of one CLI's session, without reading more than heads of files. */
interface TranscriptLocator {

  /** The session's transcript file, or empty when the CLI has not written it (yet). */
  Optional<Path> locate(TranscriptRequest request) throws IOException;
}
