package dev.clique.engine.transcript;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
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
    classes()
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(
            "dev.clique.engine.transcript..", "java..", "com.fasterxml.jackson..", "org.slf4j..")
        .check(MAIN);
  }
}
