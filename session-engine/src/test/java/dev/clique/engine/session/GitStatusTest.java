package dev.clique.engine.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GitStatusTest {
  @Test
  void theBranchAndEveryChangedPathAreCountedOnceEvenRenames() {
    String porcelain =
        "## main...origin/main [ahead 2]\0 M pom.xml\0R  new.txt\0old.txt\0?? notes/\0A  src/A.java\0";
    assertThat(GitStatus.parse(porcelain)).isEqualTo(new GitStatus("main", 4));
  }

  @Test
  void aDetachedHeadAndAnEmptyRepositoryHaveNamesToo() {
    assertThat(GitStatus.parse("## HEAD (no branch)\0")).isEqualTo(new GitStatus("HEAD", 0));
    assertThat(GitStatus.parse("## No commits yet on trunk\0?? a\0"))
        .isEqualTo(new GitStatus("trunk", 1));
    assertThat(GitStatus.parse("## feature/x\0")).isEqualTo(new GitStatus("feature/x", 0));
  }

  @Test
  void aFolderOutsideAnyWorkTreeIsEmptyWithoutStartingGit(@TempDir Path dir) {
    assertThat(GitStatus.of(dir, Duration.ofSeconds(5))).isEqualTo(GitStatus.NONE);
  }
}
