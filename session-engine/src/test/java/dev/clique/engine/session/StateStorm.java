package dev.clique.engine.session;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A child process for {@link StateFileCrashIT}: writes session records to a {@code state.json} as
 * fast as it can and prints each id once its write is acknowledged, until it is killed.
 */
public final class StateStorm {
  private StateStorm() {}

  public static void main(String[] args) throws Exception {
    SessionStore store = SessionStore.open(Path.of(args[0]));
    String prefix = args[1];
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    for (int i = 0; ; i++) {
      String id = prefix + "-" + i;
      store.put(new SessionRecord(id, "storm " + i, "shell", "/tmp", null, null, i, null));
      out.println(id);
      if (i % 7 == 3) {
        store.remove(prefix + "-" + (i - 3) + "-never");
      }
    }
  }
}
