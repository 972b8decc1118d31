package dev.clique.engine.home;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * A file that holds a secret or says where secrets are (a keystore, its password, a token, the
 * engines file): refused when anyone but its owner may read or write it, as ssh refuses a key.
 */
public final class PrivateFile {
  private static final Set<PosixFilePermission> OTHERS =
      EnumSet.of(
          PosixFilePermission.GROUP_READ,
          PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.GROUP_EXECUTE,
          PosixFilePermission.OTHERS_READ,
          PosixFilePermission.OTHERS_WRITE,
          PosixFilePermission.OTHERS_EXECUTE);

  private PrivateFile() {}

  /**
   * Checks that {@code file} is a regular file only its owner may use, and that this user reads it.
   *
   * @param what what the file is, for the message ("keystore", "engines file")
   * @param howToMakeOne what to do when it is missing
   * @throws IOException naming the file and what to do about it
   */
  public static void require(Path file, String what, String howToMakeOne) throws IOException {
    if (!Files.exists(file)) {
      throw new IOException("the " + what + " " + file + " does not exist: " + howToMakeOne);
    }
    if (!Files.isRegularFile(file)) {
      throw new IOException("the " + what + " " + file + " is not a regular file");
    }
    Set<PosixFilePermission> mode;
    try {
      mode = Files.getPosixFilePermissions(file);
    } catch (UnsupportedOperationException e) {
      // Refused, not waved through: a file system without POSIX modes cannot say who reads it.
      throw new IOException(
          "the "
              + what
              + " "
              + file
              + " is on a file system without POSIX permissions, so who may read it cannot be"
              + " told: keep it on one that has them, mode 600");
    }
    if (!Collections.disjoint(mode, OTHERS)) {
      throw new IOException(
          "the "
              + what
              + " "
              + file
              + " can be read by others than its owner (mode "
              + PosixFilePermissions.toString(mode)
              + "): `chmod 600 "
              + file
              + "`");
    }
    if (!Files.isReadable(file)) {
      throw new IOException(
          "the " + what + " " + file + " cannot be read by this user: it must be its owner's");
    }
  }
}
