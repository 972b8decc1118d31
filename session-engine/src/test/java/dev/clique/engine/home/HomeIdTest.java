package dev.clique.engine.home;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HomeIdTest {
  @TempDir Path dir;

  @Test
  void anIdIsMadeOnceKeptPrivateAndReadAgain() throws Exception {
    Path file = dir.resolve(HomeId.FILE);
    String made = HomeId.readOrMake(file);
    assertThat(made).matches("[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    assertThat(HomeId.readOrMake(file)).isEqualTo(made);
  }

  @Test
  void theHomeKeepsItsIdWhenMovedAndWhenReachedThroughALink() throws Exception {
    Path home = Files.createDirectory(dir.resolve("home"));
    String id = HomeId.readOrMake(home.resolve(HomeId.FILE));
    Path link = Files.createSymbolicLink(dir.resolve("link"), home);
    assertThat(HomeId.readOrMake(link.resolve(HomeId.FILE))).isEqualTo(id);
    Path moved = Files.move(home, dir.resolve("moved"));
    assertThat(HomeId.readOrMake(moved.resolve(HomeId.FILE))).isEqualTo(id);
    Path fresh = Files.createDirectory(dir.resolve("home"));
    assertThat(HomeId.readOrMake(fresh.resolve(HomeId.FILE)))
        .as("a new home where the old one was")
        .isNotEqualTo(id);
  }

  @Test
  void enginesStartingTogetherOnOneHomeAgree() throws Exception {
    Path file = dir.resolve(HomeId.FILE);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      Callable<String> read = () -> HomeId.readOrMake(file);
      Set<String> ids = new HashSet<>();
      for (Future<String> one : pool.invokeAll(List.of(read, read, read, read, read, read))) {
        ids.add(one.get());
      }
      assertThat(ids).hasSize(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aDamagedIdIsReplacedByANewOne() throws Exception {
    Path file = dir.resolve(HomeId.FILE);
    Files.writeString(file, "not an id\n");
    String made = HomeId.readOrMake(file);
    assertThat(made).matches("[0-9a-f-]{36}");
    assertThat(Files.readString(file).strip()).isEqualTo(made);
  }
}
