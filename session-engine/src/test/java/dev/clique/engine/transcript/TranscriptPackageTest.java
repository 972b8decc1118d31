package dev.clique.engine.transcript;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.clique.engine.home.FileStamp;
import org.junit.jupiter.api.Test;

class TranscriptPackageTest {

  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.clique.engine.transcript");

  @Test
  void onlyTheFacadeItsRecordsAndItsOneExceptionArePublic() {
    assertThat(
            MAIN.stream()
                .filter(c -> c.getModifiers().contains(JavaModifier.PUBLIC))
                .filter(c -> c.getEnclosingClass().isEmpty())
                .map(JavaClass::getSimpleName))
        .containsExactlyInAnyOrder(
            "Transcripts",
            "TranscriptRoots",
            "TranscriptRequest",
            "Turn",
            "UnreadableTranscriptException",
            "UsageReport",
            "Usage",
            "Limits",
            "CostBasis");
  }

  @Test
  void theReadersNeedNothingButTheJdkJacksonAndSlf4j() {
    // FileStamp, itself of the JDK alone, is how the engine tells that a file changed.
    classes()
        .should()
        .onlyDependOnClassesThat(
            resideInAnyPackage(
                    "dev.clique.engine.transcript..",
                    "java..",
                    "com.fasterxml.jackson..",
                    "org.slf4j..")
                .or(equivalentTo(FileStamp.class)))
        .check(MAIN);
  }

  @Test
  void fileStampNeedsNothingButTheJdk() {
    classes()
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage("dev.clique.engine.home..", "java..")
        .check(
            new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importClasses(FileStamp.class));
  }
}
