package dev.clique.engine.http;

import dev.clique.engine.home.PrivateFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.UnrecoverableKeyException;
import java.security.cert.Certificate;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * The engine's TLS identity: one private key and its certificate from a PKCS#12 keystore, whose
 * password is read from a file of the owner's only ({@code CLIQUE_TLS_KEYSTORE}, {@code
 * CLIQUE_TLS_PASSWORD_FILE}). The password is never taken from the command line or the environment,
 * where other processes can read it.
 */
public final class TlsKeystore {
  /** The PKCS#12 keystore that holds the engine's key and certificate. */
  public static final String KEYSTORE = "CLIQUE_TLS_KEYSTORE";

  /** A file (mode 0600) that holds the keystore's password on its first line. */
  public static final String PASSWORD_FILE = "CLIQUE_TLS_PASSWORD_FILE";

  private static final String HOW_TO_MAKE_ONE =
      "make one with `keytool -genkeypair -keyalg EC -groupname secp256r1 -alias engine"
          + " -dname CN=<host> -ext SAN=dns:<host> -validity 825 -storetype PKCS12"
          + " -keystore engine.p12 -storepass:file <password file>`";

  private final KeyStore store;
  private final String alias;
  private final char[] password;
  private final X509Certificate certificate;
  private final String sha256;

  private TlsKeystore(KeyStore store, String alias, char[] password, X509Certificate certificate) {
    this.store = store;
    this.alias = alias;
    this.password = password;
    this.certificate = certificate;
    this.sha256 = fingerprint(certificate);
  }

  /**
   * The keystore {@code CLIQUE_TLS_KEYSTORE} and {@code CLIQUE_TLS_PASSWORD_FILE} name, loaded and
   * checked; empty when neither is set (the engine then speaks plain HTTP).
   *
   * @throws IOException when only one is set, or {@link #load} refuses them; the message says what
   *     to do
   */
  public static Optional<TlsKeystore> fromEnvironment(Map<String, String> env) throws IOException {
    String keystore = env.getOrDefault(KEYSTORE, "").strip();
    String passwordFile = env.getOrDefault(PASSWORD_FILE, "").strip();
    if (keystore.isEmpty() && passwordFile.isEmpty()) {
      return Optional.empty();
    }
    if (passwordFile.isEmpty()) {
      throw new IOException(
          KEYSTORE
              + " is set but "
              + PASSWORD_FILE
              + " is not: set it to a file (mode 0600) that holds the keystore's password");
    }
    if (keystore.isEmpty()) {
      throw new IOException(
          PASSWORD_FILE
              + " is set but "
              + KEYSTORE
              + " is not: set it to the engine's PKCS#12 keystore ("
              + HOW_TO_MAKE_ONE
              + ")");
    }
    return Optional.of(load(Path.of(keystore), Path.of(passwordFile)));
  }

  /**
   * Loads a PKCS#12 keystore that holds exactly one private key, with the password on the first
   * line of {@code passwordFile}.
   *
   * @throws IOException when a file is missing, can be read by others than its owner, the password
   *     is wrong, or the keystore holds no key or several; the message says what to do
   */
  public static TlsKeystore load(Path keystore, Path passwordFile) throws IOException {
    PrivateFile.require(keystore, "TLS keystore (" + KEYSTORE + ")", HOW_TO_MAKE_ONE);
    PrivateFile.require(
        passwordFile,
        "TLS password file (" + PASSWORD_FILE + ")",
        "write the keystore's password into it and `chmod 600` it");
    char[] password = readPassword(passwordFile);
    KeyStore store;
    try {
      store = KeyStore.getInstance("PKCS12");
    } catch (GeneralSecurityException e) {
      throw new IOException("this Java runtime cannot read PKCS#12 keystores: " + e.getMessage());
    }
    try (InputStream in = Files.newInputStream(keystore)) {
      store.load(in, password);
    } catch (IOException | GeneralSecurityException e) {
      throw new IOException(
          e.getCause() instanceof UnrecoverableKeyException
              ? "the TLS keystore "
                  + keystore
                  + " does not open with the password in "
                  + passwordFile
                  + ": the password is wrong (the file must hold the keystore's password, on one"
                  + " line)"
              : "the TLS keystore "
                  + keystore
                  + " could not be read as a PKCS#12 keystore ("
                  + e.getMessage()
                  + "): "
                  + HOW_TO_MAKE_ONE);
    }
    String alias = onlyKey(store, keystore);
    try {
      store.getKey(alias, password);
    } catch (GeneralSecurityException e) {
      throw new IOException(
          "the key `"
              + alias
              + "` in the TLS keystore "
              + keystore
              + " does not open with the keystore's password: give the key the keystore's"
              + " password");
    }
    Certificate certificate;
    try {
      certificate = store.getCertificate(alias);
    } catch (GeneralSecurityException e) {
      throw new IOException("the TLS keystore " + keystore + ": " + e.getMessage());
    }
    if (!(certificate instanceof X509Certificate)) {
      throw new IOException(
          "the key `" + alias + "` in the TLS keystore " + keystore + " has no X.509 certificate");
    }
    X509Certificate x509 = (X509Certificate) certificate;
    try {
      x509.checkValidity();
    } catch (CertificateExpiredException | CertificateNotYetValidException e) {
      throw new IOException(
          "the certificate in the TLS keystore "
              + keystore
              + " is not valid now (valid from "
              + x509.getNotBefore().toInstant()
              + " to "
              + x509.getNotAfter().toInstant()
              + "): make a new one, and pin its new fingerprint in the clients");
    }
    return new TlsKeystore(store, alias, password, x509);
  }

  /**
   * The certificate's SHA-256 fingerprint (of its DER encoding) as {@code openssl x509 -noout
   * -fingerprint -sha256} prints it: upper-case hex, bytes parted by colons. What a client pins.
   */
  public String sha256() {
    return sha256;
  }

  /** The certificate the engine shows. */
  public X509Certificate certificate() {
    return certificate;
  }

  /**
   * A connector of {@code server} that speaks HTTP/1.1 over TLS with this key. A request's {@code
   * Host} is left to the Host guard alone, not checked against the certificate's names, so that a
   * client that pins the certificate may use any name for the engine.
   */
  public ServerConnector connector(Server server) {
    SslContextFactory.Server tls = new SslContextFactory.Server();
    tls.setKeyStore(store);
    tls.setKeyStorePassword(new String(password));
    tls.setKeyManagerPassword(new String(password));
    tls.setCertAlias(alias);
    HttpConfiguration http = new HttpConfiguration();
    SecureRequestCustomizer secure = new SecureRequestCustomizer();
    secure.setSniHostCheck(false);
    http.addCustomizer(secure);
    return new ServerConnector(
        server,
        1,
        1,
        new SslConnectionFactory(tls, HttpVersion.HTTP_1_1.asString()),
        new HttpConnectionFactory(http));
  }

  @Override
  public String toString() {
    return "TlsKeystore{alias=" + alias + ", sha256=" + sha256 + "}";
  }

  /** The SHA-256 of a certificate's DER encoding, as openssl prints it. */
  public static String fingerprint(Certificate certificate) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
      return HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("no SHA-256 in this Java runtime", e);
    }
  }

  private static String onlyKey(KeyStore store, Path keystore) throws IOException {
    List<String> keys = new ArrayList<>();
    try {
      for (String alias : Collections.list(store.aliases())) {
        if (store.isKeyEntry(alias)) {
          keys.add(alias);
        }
      }
    } catch (GeneralSecurityException e) {
      throw new IOException("the TLS keystore " + keystore + ": " + e.getMessage());
    }
    if (keys.isEmpty()) {
      throw new IOException(
          "the TLS keystore " + keystore + " holds no private key: " + HOW_TO_MAKE_ONE);
    }
    if (keys.size() > 1) {
      Collections.sort(keys);
      throw new IOException(
          "the TLS keystore "
              + keystore
              + " holds "
              + keys.size()
              + " private keys ("
              + String.join(", ", keys)
              + "): keep the engine's one alone in it");
    }
    return keys.get(0);
  }

  /** The first line of the file, without its line end; the bytes are wiped once read. */
  private static char[] readPassword(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    try {
      int end = 0;
      while (end < bytes.length && bytes[end] != '\n' && bytes[end] != '\r') {
        end++;
      }
      if (end == 0) {
        throw new IOException(
            "the TLS password file " + file + " is empty: write the keystore's password into it");
      }
      CharBuffer chars =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes, 0, end));
      char[] password = new char[chars.remaining()];
      chars.get(password);
      Arrays.fill(chars.array(), '\0');
      return password;
    } catch (CharacterCodingException e) {
      throw new IOException("the TLS password file " + file + " is not UTF-8 text");
    } finally {
      Arrays.fill(bytes, (byte) 0);
    }
  }
}
