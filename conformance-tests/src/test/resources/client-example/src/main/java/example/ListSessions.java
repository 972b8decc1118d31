package example;

import dev.clique.client.CliqueClient;
import dev.clique.client.Session;

/** Prints each session of the engine at CLIQUE_URL, read with the read-only token CLIQUE_TOKEN. */
public final class ListSessions {
  public static void main(String[] args) throws Exception {
    CliqueClient clique =
        CliqueClient.builder()
            .baseUrl(System.getenv("CLIQUE_URL"))
            .token(System.getenv("CLIQUE_TOKEN"))
            .build();
    for (Session session : clique.sessions()) {
      System.out.println(session.name() + " " + session.state());
    }
  }
}
