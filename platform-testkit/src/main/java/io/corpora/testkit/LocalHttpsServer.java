package io.corpora.testkit;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A real HTTPS server on localhost with a self-signed certificate made by the JDK's keytool for this run, and the trust
 * store (PKCS12, password {@value #PASSWORD}) that trusts it. Tests register handlers by path.
 */
public final class LocalHttpsServer implements AutoCloseable {

    public static final String PASSWORD = "changeit";

    private final HttpsServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final KeyStore trust;

    public LocalHttpsServer(Path workDirectory) throws IOException, GeneralSecurityException, InterruptedException {
        Path keyStoreFile = workDirectory.resolve("server.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
                "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12",
                "-keystore", keyStoreFile.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD)
                .redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes());
        if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
            throw new IOException("keytool failed: " + output);
        }
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keyStoreFile)) {
            keys.load(in, PASSWORD.toCharArray());
        }
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keys, PASSWORD.toCharArray());
        SSLContext serverTls = SSLContext.getInstance("TLS");
        serverTls.init(keyManagers.getKeyManagers(), null, null);

        Certificate certificate = keys.getCertificate("server");
        trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("corpora-test", certificate);

        server = HttpsServer.create(new InetSocketAddress("localhost", 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(serverTls));
        server.setExecutor(executor);
        server.start();
    }

    public LocalHttpsServer handle(String path, HttpHandler handler) {
        server.createContext(path, handler);
        return this;
    }

    /** {@code https://localhost:<port>} */
    public String origin() {
        return "https://localhost:" + server.getAddress().getPort();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** A client TLS context that trusts this server's certificate (and nothing else). */
    public SSLContext clientTls() throws GeneralSecurityException {
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trustManagers.getTrustManagers(), null);
        return context;
    }

    /** Writes the trust store that trusts this server to {@code file}. */
    public Path writeTrustStore(Path file) throws IOException, GeneralSecurityException {
        try (OutputStream out = Files.newOutputStream(file)) {
            trust.store(out, PASSWORD.toCharArray());
        }
        return file;
    }

    /** A handler answering 200 with a body and content type. */
    public static HttpHandler content(String contentType, byte[] body) {
        return exchange -> {
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        };
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
