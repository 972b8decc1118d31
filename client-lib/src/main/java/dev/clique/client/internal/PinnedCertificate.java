package dev.clique.client.internal;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.Certificate;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.regex.Pattern;
import javax.net.ssl.HostnameVerifier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Trust in exactly one server certificate, known by the SHA-256 of its DER encoding: the engine's
 * own, self-signed one. It is the engine's identity, so the name in the URL need not be the
 * certificate's (an SSH-forwarded name, a bare address), and no chain to a trusted root is needed.
 *
 * <p>An extended trust manager, so that the JDK adds none of its own checks (a hostname check among
 * them) around it.
 */
final class PinnedCertificate extends X509ExtendedTrustManager implements HostnameVerifier {
  private static final Pattern COLON_HEX = Pattern.compile("\\p{XDigit}{2}(:\\p{XDigit}{2}){31}");
  private static final Pattern PLAIN_HEX = Pattern.compile("\\p{XDigit}{64}");

  private final byte[] sha256;
  private final String shown;

  private PinnedCertificate(byte[] sha256) {
    this.sha256 = sha256;
    this.shown = show(sha256);
  }

  /**
   * A pin from a fingerprint as {@code openssl x509 -noout -fingerprint -sha256} prints it ({@code
   * AB:CD:...}) or as 64 hex digits, in either case.
   *
   * @throws IllegalArgumentException for anything else; the message does not repeat the text
   */
  static PinnedCertificate parse(String fingerprint) {
    if (fingerprint == null) {
      throw new IllegalArgumentException(
          "a certificate SHA-256 fingerprint is required, as `AB:CD:...` or 64 hex digits");
    }
    String text = fingerprint.strip();
    if (!COLON_HEX.matcher(text).matches() && !PLAIN_HEX.matcher(text).matches()) {
      throw new IllegalArgumentException(
          "a certificate SHA-256 fingerprint is 32 bytes in hex: `AB:CD:...` (as `openssl x509"
              + " -noout -fingerprint -sha256` or `keytool -list -v` print it) or 64 hex digits;"
              + " got "
              + text.length()
              + " characters that are neither");
    }
    return new PinnedCertificate(HexFormat.of().parseHex(text.replace(":", "")));
  }

  /** The fingerprint as openssl prints it: upper-case hex, bytes parted by colons. */
  String fingerprint() {
    return shown;
  }

  /** A TLS socket factory that trusts this certificate and no other. */
  SSLSocketFactory socketFactory() {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {this}, null);
      return context.getSocketFactory();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JVM has no TLS: " + e.getMessage(), e);
    }
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    if (chain == null || chain.length == 0) {
      throw new CertificateException("the engine sent no certificate");
    }
    byte[] seen = digest(chain[0].getEncoded());
    if (!MessageDigest.isEqual(seen, sha256)) {
      throw new CertificateException(
          "the engine's certificate has SHA-256 fingerprint "
              + show(seen)
              + ", but the one pinned is "
              + shown
              + ": this is not the engine that was pinned, or its certificate was replaced");
    }
    chain[0].checkValidity();
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    checkServerTrusted(chain, authType);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    checkServerTrusted(chain, authType);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    throw new CertificateException("a client trusts servers only");
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    checkClientTrusted(chain, authType);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    checkClientTrusted(chain, authType);
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return new X509Certificate[0];
  }

  /** The pin is the identity: the session's certificate must be the pinned one, whatever name. */
  @Override
  public boolean verify(String hostname, SSLSession session) {
    try {
      Certificate[] chain = session.getPeerCertificates();
      return chain.length > 0 && MessageDigest.isEqual(digest(chain[0].getEncoded()), sha256);
    } catch (SSLPeerUnverifiedException | CertificateEncodingException e) {
      return false;
    }
  }

  @Override
  public String toString() {
    return "PinnedCertificate{sha256=" + shown + "}";
  }

  private static byte[] digest(byte[] der) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(der);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  private static String show(byte[] sha256) {
    return HexFormat.ofDelimiter(":").withUpperCase().formatHex(sha256);
  }
}
