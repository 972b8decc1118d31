package dev.clique.engine.transcript;

import java.util.HashMap;
import java.util.Map;

/**
 * The fields of a line a reader looks at, as dotted paths ({@code message.content.text}); arrays
 * are transparent, so a path goes through them to their elements. Everything else is skipped by the
 * parser without being built, which matters when a line carries a large tool output.
 */
final class Fields {

  /** Keeps a value whole, whatever it holds. */
  static final Fields ALL = new Fields(Map.of());

  private final Map<String, Fields> children;

  private Fields(Map<String, Fields> children) {
    this.children = children;
  }

  /** The fields named by the paths, each kept whole at its end. */
  static Fields of(String... paths) {
    Map<String, Object> tree = new HashMap<>();
    for (String path : paths) {
      Map<String, Object> node = tree;
      for (String name : path.split("\\.")) {
        @SuppressWarnings("unchecked")
        Map<String, Object> child =
            (Map<String, Object>) node.computeIfAbsent(name, k -> new HashMap<String, Object>());
        node = child;
      }
    }
    return build(tree);
  }

  private static Fields build(Map<String, Object> tree) {
    if (tree.isEmpty()) {
      return ALL;
    }
    Map<String, Fields> children = new HashMap<>();
    tree.forEach(
        (name, child) -> {
          @SuppressWarnings("unchecked")
          Map<String, Object> subtree = (Map<String, Object>) child;
          children.put(name, build(subtree));
        });
    return new Fields(Map.copyOf(children));
  }

  /** What to keep of field {@code name} of an object, or {@code null} to skip it. */
  Fields field(String name) {
    return this == ALL ? ALL : children.get(name);
  }
}
