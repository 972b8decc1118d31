package dev.clique.engine.home;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A home that is a symbolic link is followed and its target checked as sshd's StrictModes does. */
class CliqueHomeTest {
  @TempDir Path dir;

  @Test
  void aLinkToYourOwnDirectoryIsFollowedMadePrivateAndUsed() throws Exception {
    Path target = Files.createDirectory(dir.resolve("dotfiles-clique"));
    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path link = Files.createSymbolicLink(dir.resolve("home"), target);

    CliqueHome home = new CliqueHome(link);
    home.ensureExists();
    AtomicFile.write(home.stateFile(), "{}".getBytes(StandardCharsets.UTF_8));

    assertThat(mode(target)).isEqualTo("rwx------");
    assertThat(Files.isSymbolicLink(link)).as("the link stays a link").isTrue();
    assertThat(target.resolve("state.json")).hasContent("{}");
    home.requireTrusted();
  }

  @Test
  void aLinkToADirectoryOthersCanWriteIsRefusedNamingBoth() throws Exception {
    Path target = Files.createDirectory(dir.resolve("shared"));
    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path link = Files.createSymbolicLink(dir.resolve("home"), target);

    assertThatThrownBy(() -> new CliqueHome(link).ensureExists())
        .isInstanceOf(HomeRefusedException.class)
        .hasMessage(
            "refusing "
                + link
                + ": it links to "
                + target
                + ", which is writable by others, who could have planted a token in it; check"
                + " what "
                + target
                + " holds, then chmod 700 "
                + target
                + " and start again");
    assertThat(mode(target)).as("left as it was").isEqualTo("rwxrwxrwx");
  }

  @Test
  void aLinkToAnotherUsersDirectoryIsRefused() throws Exception {
    Path target = Files.createDirectory(dir.resolve("theirs"));
    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwx------"));
    giveToNobody(target);
    Path link = Files.createSymbolicLink(dir.resolve("home"), target);

    assertThatThrownBy(() -> new CliqueHome(link).ensureExists())
        .isInstanceOf(HomeRefusedException.class)
        .hasMessage(
            "refusing "
                + link
                + ": it links to "
                + target
                + ", which belongs to user id "
                + uid(target)
                + ", not to you; use a home of your own and start again");
  }

  @Test
  void aLinkIntoADirectoryOfAnotherUserIsRefused() throws Exception {
    Path theirs = Files.createDirectory(dir.resolve("theirs"));
    Path target = Files.createDirectory(theirs.resolve("clique"));
    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwx------"));
    giveToNobody(theirs);
    Path link = Files.createSymbolicLink(dir.resolve("home"), target);

    assertThatThrownBy(() -> new CliqueHome(link).ensureExists())
        .isInstanceOf(HomeRefusedException.class)
        .hasMessageStartingWith("refusing " + link + ": it links to " + target + ", and " + theirs)
        .hasMessageContaining("above it belongs to user id " + uid(theirs));
  }

  @Test
  void aLinkBelowADirectoryOthersCanWriteIsRefusedUnlessItIsSticky() throws Exception {
    Path shared = Files.createDirectory(dir.resolve("shared"));
    Files.setAttribute(shared, "unix:mode", 0777);
    Path target = Files.createDirectory(shared.resolve("clique"));
    Path link = Files.createSymbolicLink(dir.resolve("home"), target);

    assertThatThrownBy(() -> new CliqueHome(link).ensureExists())
        .isInstanceOf(HomeRefusedException.class)
        .hasMessageContaining(shared + " above it is writable by others")
        .hasMessageContaining("chmod go-w " + shared);

    Files.setAttribute(shared, "unix:mode", 01777); // as /tmp: no one removes what is not theirs
    new CliqueHome(link).ensureExists();
    assertThat(mode(target)).isEqualTo("rwx------");
  }

  @Test
  void aDanglingLinkIsRefusedSayingWhatToMake() throws Exception {
    Path missing = dir.resolve("not-made-yet");
    Path link = Files.createSymbolicLink(dir.resolve("home"), missing);

    assertThatThrownBy(() -> new CliqueHome(link).ensureExists())
        .isInstanceOf(HomeRefusedException.class)
        .hasMessage(
            "refusing "
                + link
                + ": it links to "
                + missing
                + ", which does not exist; make that directory (mkdir -m 700 "
                + missing
                + ") or point the link at your home and start again");
    assertThat(missing).doesNotExist();
  }

  @Test
  void aNotifyFileOthersCouldReadIsMadePrivateForItsUrlsAreSecrets() throws Exception {
    Path plain = Files.createDirectory(dir.resolve("plain"));
    Path notify =
        Files.writeString(
            plain.resolve("notify.toml"), "[[webhook]]\nurl = \"https://ntfy.sh/t\"\n");
    Files.setPosixFilePermissions(notify, PosixFilePermissions.fromString("rw-r--r--"));
    CliqueHome home = new CliqueHome(plain);
    home.ensureExists();
    assertThat(home.notifyFile()).isEqualTo(notify);
    assertThat(mode(notify)).isEqualTo("rw-------");
  }

  @Test
  void aLinkedFileInsideALinkedHomeIsStillRefused() throws Exception {
    Path target = Files.createDirectory(dir.resolve("dotfiles-clique"));
    Path planted = Files.writeString(dir.resolve("planted.json"), "{}");
    Files.createSymbolicLink(target.resolve("tokens.json"), planted);
    Path link = Files.createSymbolicLink(dir.resolve("home"), target);

    assertThatThrownBy(() -> new CliqueHome(link).ensureExists())
        .isInstanceOf(HomeRefusedException.class)
        .hasMessageStartingWith("refusing " + link.resolve("tokens.json"))
        .hasMessageContaining("is a symbolic link");
  }

  @Test
  void aPlainHomeOthersCanWriteIsRefusedAsBefore() throws Exception {
    Path plain = Files.createDirectory(dir.resolve("home"));
    Files.setPosixFilePermissions(plain, PosixFilePermissions.fromString("rwxrwxrwx"));

    assertThatThrownBy(() -> new CliqueHome(plain).ensureExists())
        .isInstanceOf(HomeRefusedException.class)
        .hasMessage(
            "refusing "
                + plain
                + ": it is writable by others, who could have planted a token in it; check what"
                + " it holds, then chmod 700 it and start again");
  }

  @Test
  void requireTrustedRefusesTheSameButChangesNothing() throws Exception {
    CliqueHome notMade = new CliqueHome(dir.resolve("not-made"));
    notMade.requireTrusted();
    assertThat(notMade.dir()).doesNotExist();

    Path readable = Files.createDirectory(dir.resolve("readable"));
    Files.setPosixFilePermissions(readable, PosixFilePermissions.fromString("rwxr-xr-x"));
    new CliqueHome(readable).requireTrusted();
    assertThat(mode(readable)).isEqualTo("rwxr-xr-x");

    Files.setPosixFilePermissions(readable, PosixFilePermissions.fromString("rwxrwxrwx"));
    assertThatThrownBy(() -> new CliqueHome(readable).requireTrusted())
        .isInstanceOf(HomeRefusedException.class)
        .hasMessageContaining("writable by others");
    assertThat(mode(readable)).isEqualTo("rwxrwxrwx");
  }

  /**
   * Makes {@code path} belong to the user {@code nobody}. Never skipped: without that user, or
   * without the right to give files away (root), the test fails and says so.
   */
  private static void giveToNobody(Path path) throws Exception {
    UserPrincipal nobody =
        path.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
    try {
      Files.getFileAttributeView(path, PosixFileAttributeView.class).setOwner(nobody);
    } catch (FileSystemException e) {
      throw new AssertionError(
          "this test gives a directory to the user nobody, which needs root: " + e, e);
    }
    assertThat(uid(path)).as("now another user's").isNotEqualTo(uid(Path.of("/proc/self")));
  }

  private static Object uid(Path path) throws Exception {
    return Files.getAttribute(path, "unix:uid");
  }

  private static String mode(Path path) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
  }
}
