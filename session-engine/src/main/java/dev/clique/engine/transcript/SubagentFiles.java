package dev.clique.engine.transcript;

import java.nio.file.Path;
import java.util.List;

/**
 * The files of a session's sub-agents that its usage counts.
 *
 * @param files the files to read, each a transcript of one sub-agent
 * @param someLeftOut whether there were more than the engine reads for one session, so the sums
 *     leave some out
 */
record SubagentFiles(List<Path> files, boolean someLeftOut) {

  static final SubagentFiles NONE = new SubagentFiles(List.of(), false);

  SubagentFiles {
    files = List.copyOf(files);
  }
}
