package dev.clique.engine.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HeadFieldsTest {

  private static final List<String> WANTED = List.of("/payload/id", "/payload/cwd");

  @TempDir Path dir;
  private final AtomicLong read = new AtomicLong();
  private final HeadFields heads = new HeadFields(read);

  @Test
  void fieldsBeforeAVeryLongFirstLineAreFoundWithinTheHeadLimit() throws IOException {
    Path file = dir.resolve("rollout.jsonl");
    Files.writeString(
        file,
        "{\"type\":\"session_meta\",\"payload\":{\"id\":\"abc\",\"cwd\":\"/work\",\"instructions\":\""
            + "i".repeat(5_000_000)
            + "\"}}\n");

    assertThat(heads.read(file, WANTED))
        .containsEntry("/payload/id", "abc")
        .containsEntry("/payload/cwd", "/work");
    assertThat(read.get()).isLessThanOrEqualTo(HeadFields.FIRST_READ_BYTES);
  }

  @Test
  void fieldsPastTheHeadLimitAreNotLookedFor() throws IOException {
    Path file = dir.resolve("rollout.jsonl");
    Files.writeString(
        file,
        "{\"type\":\"session_meta\",\"payload\":{\"instructions\":\""
            + "i".repeat(5_000_000)
            + "\",\"id\":\"abc\"}}\n");

    assertThat(heads.read(file, WANTED)).isEmpty();
    assertThat(read.get())
        .isLessThanOrEqualTo(HeadFields.FIRST_READ_BYTES + HeadFields.MAX_HEAD_BYTES);
  }

  @Test
  void nestedObjectsWithTheSameFieldNamesDoNotMatch() throws IOException {
    Path file = dir.resolve("rollout.jsonl");
    Files.writeString(
        file,
        "{\"id\":\"top\",\"payload\":{\"git\":{\"id\":\"nested\"},\"list\":[{\"id\":\"x\"}],"
            + "\"id\":\"right\"}}\n{\"payload\":{\"cwd\":\"second line\"}}\n");

    assertThat(heads.read(file, WANTED)).containsOnly(java.util.Map.entry("/payload/id", "right"));
  }

  @Test
  void anEmptyFileIsLookedAtAgainOnceWritten() throws IOException {
    Path file = dir.resolve("rollout.jsonl");
    Files.createFile(file);

    assertThat(heads.read(file, WANTED)).isEmpty();

    Files.writeString(file, "{\"payload\":{\"id\":\"abc\",\"cwd\":\"/w\"}}\n");

    assertThat(heads.read(file, WANTED)).containsEntry("/payload/id", "abc");
  }

  @Test
  void aCompleteHeadIsReadOnce() throws IOException {
    Path file = dir.resolve("rollout.jsonl");
    Files.writeString(file, "{\"payload\":{\"id\":\"abc\"}}\n{\"more\":1}\n");
    heads.read(file, WANTED);
    long once = read.get();

    assertThat(heads.read(file, WANTED)).containsOnlyKeys("/payload/id");
    assertThat(read.get()).isEqualTo(once);
  }
}
