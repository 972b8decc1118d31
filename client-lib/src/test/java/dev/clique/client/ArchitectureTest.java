package dev.clique.client;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.members;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaConstructor;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.lang.syntax.elements.GivenMembersConjunction;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import okhttp3.OkHttpClient;
import okhttp3.Request;

/** The module rules of the architecture, on the compiled classes. */
@AnalyzeClasses(
    packages = "dev.clique.client",
    importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
  private static final String API = "dev.clique.client";
  private static final String INTERNAL = "dev.clique.client.internal";
  private static final String REQUEST_SITE = "dev.clique.client.internal.GetOnlyHttp";
  private static final Set<String> WRITES = Set.of("post", "put", "patch", "delete", "method");

  // javax.net.ssl is the JDK's own TLS (java.base), for a pinned engine certificate.
  @ArchTest
  static final ArchRule runtimeDependenciesAreOkHttpAndJacksonOnly =
      classes()
          .should()
          .onlyDependOnClassesThat(
              resideInAnyPackage(
                  "java..",
                  "javax.net.ssl",
                  "dev.clique.client..",
                  "okhttp3",
                  "okio",
                  "com.fasterxml.jackson.."));

  @ArchTest
  static final ArchRule nothingUsesOkHttpInternals =
      noClasses().should().dependOnClassesThat(resideInAPackage("okhttp3.internal.."));

  @ArchTest
  static final ArchRule theApiPackageSeesOkHttpOnlyAsTheClientACallerMayShare =
      noClasses()
          .that()
          .resideInAPackage(API)
          .should()
          .dependOnClassesThat(
              resideInAnyPackage("okhttp3..", "okio..", "kotlin..")
                  .and(not(equivalentTo(OkHttpClient.class))));

  @ArchTest
  static final ArchRule publicSignaturesOfTheApiShowNoInternalType =
      publicMembersOfTheApi().should(mentionNoTypeOf(INTERNAL));

  @ArchTest
  static final ArchRule publicSignaturesOfTheApiShowNoJacksonType =
      publicMembersOfTheApi().should(mentionNoTypeOf("com.fasterxml"));

  @ArchTest
  static final ArchRule onlyTheRequestSiteBuildsARequest =
      noClasses()
          .that()
          .doNotHaveFullyQualifiedName(REQUEST_SITE)
          .should()
          .callCodeUnitWhere(buildsARequest());

  @ArchTest
  static final ArchRule noRequestIsAWrite =
      noClasses().should().callCodeUnitWhere(setsAWriteMethod());

  @ArchTest
  static void theRequestSiteBuildsExactlyOneRequestAndItIsAGet(JavaClasses classes) {
    JavaClass site = classes.get(REQUEST_SITE);
    List<JavaCall<?>> builds = new ArrayList<>();
    List<JavaCall<?>> gets = new ArrayList<>();
    List<JavaCall<?>> calls = new ArrayList<>(site.getMethodCallsFromSelf());
    calls.addAll(site.getConstructorCallsFromSelf());
    for (JavaCall<?> call : calls) {
      if (buildsARequest().test(call)) {
        builds.add(call);
      }
      if (call.getTargetOwner().isEquivalentTo(Request.Builder.class)
          && call.getName().equals("get")) {
        gets.add(call);
      }
    }
    assertThat(builds).hasSize(1);
    assertThat(gets).hasSize(1);
    assertThat(gets.get(0).getOrigin()).isEqualTo(builds.get(0).getOrigin());
  }

  /** The members a caller sees: public ones of the public classes of the exported package. */
  private static GivenMembersConjunction<JavaMember> publicMembersOfTheApi() {
    return members()
        .that()
        .areDeclaredInClassesThat()
        .resideInAPackage(API)
        .and()
        .areDeclaredInClassesThat()
        .arePublic()
        .and()
        .arePublic();
  }

  private static DescribedPredicate<JavaCall<?>> buildsARequest() {
    return new DescribedPredicate<>("build an HTTP request") {
      @Override
      public boolean test(JavaCall<?> call) {
        JavaClass owner = call.getTargetOwner();
        return (owner.isEquivalentTo(Request.Builder.class)
                && call.getName().equals(JavaConstructor.CONSTRUCTOR_NAME))
            || (owner.isEquivalentTo(Request.class) && call.getName().equals("newBuilder"));
      }
    };
  }

  private static DescribedPredicate<JavaCall<?>> setsAWriteMethod() {
    return new DescribedPredicate<>("give a request a method other than GET or a body") {
      @Override
      public boolean test(JavaCall<?> call) {
        return call.getTargetOwner().isEquivalentTo(Request.Builder.class)
            && WRITES.contains(call.getName());
      }
    };
  }

  private static ArchCondition<JavaMember> mentionNoTypeOf(String packagePrefix) {
    return new ArchCondition<>("mention no type of " + packagePrefix) {
      @Override
      public void check(JavaMember member, ConditionEvents events) {
        List<JavaType> types = new ArrayList<>();
        if (member instanceof JavaCodeUnit) {
          JavaCodeUnit unit = (JavaCodeUnit) member;
          types.add(unit.getReturnType());
          types.addAll(unit.getParameterTypes());
          types.addAll(unit.getThrowsClause().getTypes());
        } else if (member instanceof JavaField) {
          types.add(((JavaField) member).getType());
        }
        for (JavaType type : types) {
          for (JavaClass raw : type.getAllInvolvedRawTypes()) {
            if (raw.getPackageName().startsWith(packagePrefix)) {
              events.add(
                  SimpleConditionEvent.violated(
                      member, member.getFullName() + " shows " + raw.getName()));
            }
          }
        }
      }
    };
  }
}
