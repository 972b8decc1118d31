package dev.clique.fake;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A PKCS#12 keystore made for a test by the JDK's own {@code keytool}, as a person makes one for
 * {@code clique serve}: an EC key and its self-signed certificate, its password in a file beside
 * it. Both files are 0600. The password never goes into an argument list ({@code -storepass:file}).
 */
public final class SelfSignedKeystore {
  private static final Pattern SHA256_LINE =
      Pattern.compile("SHA256: ((\\p{XDigit}{2}:){31}\\p{XDigit}{2})");

  private final Path keystore;
  private final Path passwordFile;
  private final String sha256;

  private SelfSignedKeystore(Path keystore, Path passwordFile, String sha256) {
    this.keystore = keystore;
    this.passwordFile = passwordFile;
    this.sha256 = sha256;
  }

  /**
   * Makes {@code engine.p12} and {@code password} in {@code dir}: a certificate for {@code CN=} the
   * first of {@code names}, each name a subject alternative name (an address as {@code ip:}).
   */
  public static SelfSignedKeystore create(Path dir, String... names)
      throws IOException, InterruptedException {
    if (names.length == 0) {
      throw new IllegalArgumentException("a certificate names at least one host");
    }
    Path keystore = dir.resolve("engine.p12");
    Path passwordFile = dir.resolve("password");
    Files.deleteIfExists(passwordFile);
    Files.createFile(
        passwordFile,
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(passwordFile, UUID.randomUUID() + "\n");
    List<String> alternatives = new ArrayList<>();
    for (String name : names) {
      alternatives.add((name.matches("[\\d.]+|.*:.*") ? "ip:" : "dns:") + name);
    }
    keytool(
        "-genkeypair",
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-alias",
        "engine",
        "-dname",
        "CN=" + names[0],
        "-ext",
        "SAN=" + String.join(",", alternatives),
        "-validity",
        "2",
        "-storetype",
        "PKCS12",
        "-keystore",
        keystore.toString(),
        "-storepass:file",
        passwordFile.toString());
    Files.setPosixFilePermissions(keystore, PosixFilePermissions.fromString("rw-------"));
    Matcher printed =
        SHA256_LINE.matcher(
            keytool(
                "-list",
                "-v",
                "-keystore",
                keystore.toString(),
                "-storepass:file",
                passwordFile.toString()));
    if (!printed.find()) {
      throw new IOException("keytool -list printed no SHA256 fingerprint");
    }
    return new SelfSignedKeystore(keystore, passwordFile, printed.group(1));
  }

  /** The keystore file. */
  public Path keystore() {
    return keystore;
  }

  /** The file that holds its password, on one line. */
  public Path passwordFile() {
    return passwordFile;
  }

  /** The certificate's SHA-256 fingerprint, as {@code keytool -list -v} prints it. */
  public String sha256() {
    return sha256;
  }

  /** TLS for a server that shows this certificate. */
  public SSLContext serverContext() throws IOException {
    try {
      char[] password = password();
      KeyManagerFactory keys =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(load(password), password);
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(keys.getKeyManagers(), null, null);
      return tls;
    } catch (GeneralSecurityException e) {
      throw new IOException("the test keystore does not open: " + e.getMessage(), e);
    }
  }

  /** TLS for a client that trusts this certificate as its only root (and checks host names). */
  public SSLContext clientContext() throws IOException {
    try {
      KeyStore store = load(password());
      KeyStore roots = KeyStore.getInstance("PKCS12");
      roots.load(null, null);
      roots.setCertificateEntry("engine", store.getCertificate("engine"));
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(roots);
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(null, trust.getTrustManagers(), null);
      return tls;
    } catch (GeneralSecurityException e) {
      throw new IOException("the test keystore does not open: " + e.getMessage(), e);
    }
  }

  private char[] password() throws IOException {
    return Files.readString(passwordFile).strip().toCharArray();
  }

  private KeyStore load(char[] password) throws IOException, GeneralSecurityException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keystore)) {
      store.load(in, password);
    }
    return store;
  }

  private static String keytool(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IOException("keytool " + args[0] + " did not finish in 60 s");
    }
    if (process.exitValue() != 0) {
      throw new IOException("keytool " + args[0] + " failed: " + output.strip());
    }
    return output;
  }
}
