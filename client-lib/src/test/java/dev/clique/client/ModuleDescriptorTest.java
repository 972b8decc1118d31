package dev.clique.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Exports;
import java.lang.module.ModuleDescriptor.Requires;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The compiled module-info: one exported package, OkHttp and Jackson required, nothing else. */
class ModuleDescriptorTest {
  private static Path classes() throws Exception {
    return Path.of(CliqueClient.class.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  private static ModuleDescriptor descriptor() throws Exception {
    try (InputStream in = Files.newInputStream(classes().resolve("module-info.class"))) {
      return ModuleDescriptor.read(in);
    }
  }

  @Test
  void onlyThePublicApiPackageIsExported() throws Exception {
    ModuleDescriptor module = descriptor();

    assertThat(module.name()).isEqualTo("dev.clique.client");
    assertThat(module.exports()).extracting(Exports::source).containsExactly("dev.clique.client");
    assertThat(module.exports()).allSatisfy(e -> assertThat(e.isQualified()).isFalse());
    assertThat(module.opens()).isEmpty();
    assertThat(classes().resolve("dev/clique/client/internal")).isDirectory();
  }

  @Test
  void itRequiresOkHttpAndJacksonOnly() throws Exception {
    Set<String> required =
        descriptor().requires().stream()
            .map(Requires::name)
            .filter(name -> !name.equals("java.base"))
            .collect(Collectors.toSet());

    assertThat(required).containsExactlyInAnyOrder("okhttp3", "com.fasterxml.jackson.databind");
  }
}
