package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a suite that changed the real {@code ~/.clique} or the real tmux socket {@code clique}: a
 * picture of both is taken before the suite and compared after it.
 */
final class LeavesRealThingsUntouched implements BeforeAllCallback, AfterAllCallback {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(LeavesRealThingsUntouched.class);

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    context.getStore(NAMESPACE).put("before", RealThings.look());
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    RealThings before = context.getStore(NAMESPACE).get("before", RealThings.class);
    assertThat(RealThings.look()).as("the real ~/.clique and tmux socket clique").isEqualTo(before);
  }
}
