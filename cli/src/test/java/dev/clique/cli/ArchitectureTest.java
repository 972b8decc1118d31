package dev.clique.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The module rules of ARCHITECTURE.md, checked on the compiled classes of every module. */
class ArchitectureTest {
  private static final JavaClasses CLIQUE =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.clique");

  @Test
  void theClientDependsOnNothingOfOurs() {
    noClasses()
        .that()
        .resideInAPackage("dev.clique.client..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.clique.engine..", "dev.clique.mcp..", "dev.clique.cli..")
        .check(CLIQUE);
  }

  @Test
  void theEngineDependsOnNoOtherModule() {
    noClasses()
        .that()
        .resideInAPackage("dev.clique.engine..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.clique.client..", "dev.clique.mcp..", "dev.clique.cli..")
        .check(CLIQUE);
  }

  @Test
  void theMcpServerReachesEnginesOnlyThroughTheClient() {
    noClasses()
        .that()
        .resideInAPackage("dev.clique.mcp..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.clique.engine..")
        .because("--embedded is assembled in the cli: the MCP server sees a URL and a token")
        .check(CLIQUE);
  }

  @Test
  void noShippedModuleUsesReactor() {
    // The SDK brings Reactor along; clique's answers are the JDK's futures. Reactor's classes,
    // about three hundred, once made a fifth of what a clique mcp process loads.
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAPackage("reactor..")
        .because("an answer is a CompletableFuture, its steps made by mcp's protocol.Futures")
        .check(CLIQUE);
  }

  @Test
  void theToolsReachSessionsOnlyThroughTheClientsPublicApi() {
    noClasses()
        .that()
        .resideInAPackage("dev.clique.mcp.tools..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.clique.client.internal..", "okhttp3..", "java.net.http..")
        .check(CLIQUE);
  }

  @Test
  void theSdkIsTheProtocolsVocabularyNotItsServer() {
    noClasses()
        .that()
        .resideInAPackage("dev.clique.mcp..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.modelcontextprotocol.server..",
            "io.modelcontextprotocol.client..",
            "io.modelcontextprotocol.json")
        .because(
            "the router answers every method itself (ARCHITECTURE.md): no layer converts to the"
                + " SDK's server and back")
        .check(CLIQUE);
  }

  @Test
  void theMcpServerNeverDependsOnTheCli() {
    noClasses()
        .that()
        .resideInAPackage("dev.clique.mcp..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.clique.cli..")
        .check(CLIQUE);
  }

  @Test
  void nothingShippedDependsOnTheTestSupportModules() {
    noClasses()
        .that()
        .resideInAnyPackage(
            "dev.clique.engine..", "dev.clique.client..", "dev.clique.mcp..", "dev.clique.cli..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.clique.fake..", "dev.clique.models..")
        .because("the fake engine and the model servers are for tests and benchmarks only")
        .check(CLIQUE);
  }

  @Test
  void noModuleHasAPackageCycle() {
    for (String module : List.of("engine", "client", "mcp")) {
      slices()
          .matching("dev.clique." + module + ".(*)..")
          .should()
          .beFreeOfCycles()
          .as("the packages of dev.clique." + module + " depend on each other one way")
          .check(CLIQUE);
    }
  }

  @Test
  void onlyTheCliWritesToSystemOut() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.clique.cli..")
        .should()
        .accessField(System.class, "out")
        .because("stdout of `clique mcp` is the protocol")
        .check(CLIQUE);
  }
}
