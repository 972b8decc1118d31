package dev.clique.engine.transcript;

import java.util.LinkedHashMap;
import java.util.Map;

/** The readers' caches: a map that keeps at most so many entries, dropping the least used. */
final class RecentlyUsed {
  private RecentlyUsed() {}

  /** An access-ordered map of at most {@code capacity} entries; not thread-safe. */
  static <K, V> Map<K, V> map(int capacity) {
    return new LinkedHashMap<>(16, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
        return size() > capacity;
      }
    };
  }
}
