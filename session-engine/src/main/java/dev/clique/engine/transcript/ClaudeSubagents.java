package dev.clique.engine.transcript;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Where Claude Code's sub-agents (its Task and Agent tools, and the internal requests it makes as
 * side chains) record their conversations: beside the session's {@code <id>.jsonl}, in {@code
 * <id>/subagents/agent-<agent id>.jsonl}, or a folder or two further down (a workflow's agents:
 * {@code subagents/workflows/<run id>/}). Each is a file of its own that only grows, with the same
 * records as the session's file, every one marked {@code isSidechain} and carrying its {@code
 * agentId}; the {@code agent-<agent id>.meta.json} beside it holds no usage and is not read.
 */
final class ClaudeSubagents {

  /** The most sub-agent files read for one session: the most recently written ones. */
  static final int MAX_FILES = 256;

  /** How far below {@code subagents/} a sub-agent's file may be. */
  private static final int MAX_DEPTH = 4;

  private ClaudeSubagents() {}

  /** The sub-agent files of the session whose transcript is {@code sessionFile}. */
  static SubagentFiles of(Path sessionFile) throws IOException {
    String name = sessionFile.getFileName().toString();
    if (!name.endsWith(".jsonl")) {
      return SubagentFiles.NONE;
    }
    Path folder = sessionFile.resolveSibling(name.substring(0, name.length() - ".jsonl".length()));
    Path subagents = folder.resolve("subagents");
    // Links are not followed, as for the session's own file.
    if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)
        || !Files.isDirectory(subagents, LinkOption.NOFOLLOW_LINKS)) {
      return SubagentFiles.NONE;
    }
    List<Map.Entry<Path, FileTime>> found = new ArrayList<>();
    try (Stream<Path> paths = Files.walk(subagents, MAX_DEPTH)) {
      paths.forEach(
          path -> {
            String file = path.getFileName().toString();
            if (!file.startsWith("agent-") || !file.endsWith(".jsonl")) {
              return;
            }
            try {
              BasicFileAttributes attributes =
                  Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
              if (attributes.isRegularFile()) {
                found.add(Map.entry(path, attributes.lastModifiedTime()));
              }
            } catch (NoSuchFileException e) {
              // removed while listed
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    } catch (NoSuchFileException e) {
      return SubagentFiles.NONE; // removed while listed
    }
    boolean someLeftOut = found.size() > MAX_FILES;
    return new SubagentFiles(
        found.stream()
            .sorted(
                Map.Entry.<Path, FileTime>comparingByValue(Comparator.reverseOrder())
                    .thenComparing(Map.Entry.comparingByKey()))
            .limit(MAX_FILES)
            .map(Map.Entry::getKey)
            .sorted()
            .toList(),
        someLeftOut);
  }
}
