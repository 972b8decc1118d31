package dev.clique.engine.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.UnixOperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The descriptor limit, read from /proc where the platform MXBean would cost megabytes. */
class DescriptorLimitTest {
  @TempDir Path dir;

  private static final String LIMITS =
      "Limit                     Soft Limit           Hard Limit           Units     \n"
          + "Max processes             %s                %s                processes \n"
          + "Max open files            %s                %s                files     \n"
          + "Max locked memory         8388608              8388608              bytes     \n";

  @Test
  void theSoftLimitOfOpenFilesIsRead() throws Exception {
    Path limits = Files.writeString(dir.resolve("limits"), LIMITS.formatted(99, 99, 4096, 524288));
    assertThat(ApiHandler.softLimitOfOpenFiles(limits)).isEqualTo(4096);
  }

  @Test
  void unlimitedIsTheLargestLimit() throws Exception {
    Path limits =
        Files.writeString(
            dir.resolve("limits"), LIMITS.formatted(99, 99, "unlimited", "unlimited"));
    assertThat(ApiHandler.softLimitOfOpenFiles(limits)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void aMissingOrStrangeFileSaysNothing() throws Exception {
    assertThat(ApiHandler.softLimitOfOpenFiles(dir.resolve("none"))).isZero();
    Path strange = Files.writeString(dir.resolve("limits"), "Max open files  lots  lots  files\n");
    assertThat(ApiHandler.softLimitOfOpenFiles(strange)).isZero();
    Path other = Files.writeString(dir.resolve("other"), "Max processes 10 10 processes\n");
    assertThat(ApiHandler.softLimitOfOpenFiles(other)).isZero();
  }

  @Test
  void itIsWhatTheMxBeanSays() {
    var os = (UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    assertThat(ApiHandler.maxDescriptors()).isEqualTo(os.getMaxFileDescriptorCount());
  }
}
