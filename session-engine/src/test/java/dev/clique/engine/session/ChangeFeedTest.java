package dev.clique.engine.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ChangeFeedTest {
  private final ChangeFeed feed = new ChangeFeed(1_000);

  @AfterEach
  void close() {
    feed.close();
  }

  private static ChangeFeed.Mark mark(String id, String state) {
    return new ChangeFeed.Mark(id, state, null, null, "screen", null);
  }

  @Test
  void onlyADifferentPictureMovesTheRevisionByOne() {
    feed.observe(List.of(mark("a", "idle")));
    assertThat(feed.revision()).isEqualTo(1_001);
    feed.observe(List.of(mark("a", "idle")));
    assertThat(feed.revision()).as("the same marks again").isEqualTo(1_001);
    feed.observe(List.of(mark("a", "working")));
    assertThat(feed.revision()).isEqualTo(1_002);
    feed.observe(List.of(mark("a", "working"), mark("b", "idle")));
    assertThat(feed.revision()).as("a session appeared").isEqualTo(1_003);
    feed.observe(
        List.of(
            new ChangeFeed.Mark("a", "working", "permission", "rm -rf build", "hook", null),
            mark("b", "idle")));
    assertThat(feed.revision()).as("attention and its source").isEqualTo(1_004);
  }

  @Test
  void aHeldRequestEndsAtTheNextChangeWithTheNewRevision() {
    List<CompletableFuture<Long>> held = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      held.add(feed.after(1_000, 60_000));
    }
    assertThat(feed.held()).isEqualTo(10_000);
    assertThat(held).noneMatch(CompletableFuture::isDone);

    feed.observe(List.of(mark("a", "idle")));

    assertThat(held).allSatisfy(f -> assertThat(f.getNow(0L)).isEqualTo(1_001L));
    assertThat(feed.held()).isZero();
  }

  @Test
  void aRevisionThatIsNotTheCurrentOneOrNoTimeAnswersAtOnce() {
    assertThat(feed.after(999, 60_000).getNow(0L)).as("a change since").isEqualTo(1_000L);
    assertThat(feed.after(5_000, 60_000).getNow(0L)).as("an engine restarted").isEqualTo(1_000L);
    assertThat(feed.after(1_000, 0).getNow(0L)).isEqualTo(1_000L);
    assertThat(feed.held()).isZero();
  }

  @Test
  void aTimeOutAnswersTheSameRevisionAndACancelLetsGo() throws Exception {
    assertThat(feed.after(1_000, 50).get(5, TimeUnit.SECONDS)).isEqualTo(1_000L);
    for (int i = 0; i < 100 && feed.held() > 0; i++) {
      Thread.sleep(10); // the timer thread lets go of it just after it answers
    }
    assertThat(feed.held()).isZero();
    CompletableFuture<Long> abandoned = feed.after(1_000, 60_000);
    assertThat(feed.held()).isEqualTo(1);
    abandoned.cancel(false);
    assertThat(feed.held()).isZero();
  }
}
