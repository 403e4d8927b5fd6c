package io.corpora.ingest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.controlplane.IngestPolicy;
import io.corpora.controlplane.Origin;
import io.corpora.testkit.LocalHttpsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link UrlFetcher} against a real local HTTPS server with a certificate made for this run. */
class UrlFetcherTest {

    private static final byte[] GUIDE = "# Guide\n\nBadgers dig setts.\n".getBytes(StandardCharsets.UTF_8);
    private static final AtomicInteger REDIRECT_TARGET_HITS = new AtomicInteger();

    @TempDir
    static Path work;

    private static LocalHttpsServer server;
    private static UrlFetcher fetcher;
    private static IngestPolicy localAllowed;

    @BeforeAll
    static void start() throws Exception {
        server = new LocalHttpsServer(work)
                .handle("/guide.md", LocalHttpsServer.content("text/markdown; charset=UTF-8", GUIDE))
                .handle("/moved", exchange -> {
                    exchange.getResponseHeaders().set("Location", "https://localhost:" + server.port() + "/target");
                    exchange.sendResponseHeaders(302, -1);
                    exchange.close();
                })
                .handle("/target", exchange -> {
                    REDIRECT_TARGET_HITS.incrementAndGet();
                    LocalHttpsServer.content("text/plain", GUIDE).handle(exchange);
                })
                .handle("/declared-large", LocalHttpsServer.content("text/plain", new byte[200_000]))
                .handle("/streamed-large", exchange -> {
                    exchange.getResponseHeaders().set("Content-Type", "text/plain");
                    exchange.sendResponseHeaders(200, 0); // chunked: no Content-Length to refuse up front
                    try (OutputStream out = exchange.getResponseBody()) {
                        for (int i = 0; i < 1000; i++) {
                            out.write(new byte[8192]);
                        }
                    } catch (IOException clientHungUp) {
                        // expected: the fetcher stops reading past its limit
                    }
                })
                .handle("/slow", exchange -> {
                    try {
                        Thread.sleep(3000);
                        LocalHttpsServer.content("text/plain", GUIDE).handle(exchange);
                    } catch (InterruptedException | IOException e) {
                        exchange.close();
                    }
                })
                .handle("/missing", exchange -> {
                    exchange.sendResponseHeaders(404, -1);
                    exchange.close();
                });
        fetcher = new UrlFetcher(Duration.ofSeconds(10), 64 * 1024, server.clientTls());
        localAllowed = new IngestPolicy(List.of(), List.of(server.origin()));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static IngestException refused(String url, IngestPolicy policy) {
        return assertThrows(IngestException.class, () -> fetcher.fetch(url, policy));
    }

    @Test
    void fetchesFromAnAllowedOriginWithTheDeclaredMediaType() {
        UrlFetcher.Fetched fetched = fetcher.fetch(server.origin() + "/guide.md", localAllowed);
        assertArrayEquals(GUIDE, fetched.content());
        assertEquals("text/markdown", fetched.mediaType());
        assertEquals("UTF-8", fetched.charset());
        assertEquals("guide.md", fetched.fileName());
    }

    @Test
    void aTrustStoreFileConfiguresWhichServersAreTrusted() throws Exception {
        Path trustStore = server.writeTrustStore(work.resolve("trust.p12"));
        UrlFetcher configured = new UrlFetcher(Duration.ofSeconds(5), 1024, UrlFetcher.trusting(trustStore, LocalHttpsServer.PASSWORD));
        assertArrayEquals(GUIDE, configured.fetch(server.origin() + "/guide.md", localAllowed).content());

        UrlFetcher jdkDefaults = new UrlFetcher(Duration.ofSeconds(5), 1024, javax.net.ssl.SSLContext.getDefault());
        IngestException untrusted = assertThrows(IngestException.class, () -> jdkDefaults.fetch(server.origin() + "/guide.md", localAllowed));
        assertEquals(422, untrusted.status());
        assertTrue(untrusted.getMessage().contains("TLS"), untrusted.getMessage());
    }

    @Test
    void anOriginNotListedIsRefusedBeforeAnyConnection() {
        IngestPolicy other = new IngestPolicy(List.of("https://docs.example.com"), List.of("https://localhost:1"));
        IngestException e = refused(server.origin() + "/guide.md", other);
        assertEquals(403, e.status());
        assertEquals("origin-not-allowed", e.type());
        assertTrue(e.getMessage().contains(server.origin()) && e.getMessage().contains("https://docs.example.com"), e.getMessage());
    }

    @Test
    void originsCompareSchemeHostAndPortExactly() {
        assertEquals(Origin.parse("https://Docs.Example.com"), Origin.parse("https://docs.example.com:443/"));
        assertTrue(!Origin.parse("https://docs.example.com").equals(Origin.parse("https://docs.example.com:8443")));
        assertTrue(!Origin.parse("https://docs.example.com").equals(Origin.of(java.net.URI.create("https://docs.example.com.evil.org/x"))));
        assertThrows(IllegalArgumentException.class, () -> Origin.parse("https://docs.example.com/path"));
        assertThrows(IllegalArgumentException.class, () -> Origin.parse("http://docs.example.com"));
        assertThrows(IllegalArgumentException.class, () -> Origin.parse("https://user@docs.example.com"));
    }

    @Test
    void plainHttpAndUserInfoAreRefused() {
        IngestException http = refused("http://localhost:" + server.port() + "/guide.md", localAllowed);
        assertEquals(400, http.status());
        assertTrue(http.getMessage().contains("https"), http.getMessage());

        IngestException userInfo = refused("https://alice:secret@localhost:" + server.port() + "/guide.md", localAllowed);
        assertEquals(400, userInfo.status());
        assertTrue(!userInfo.getMessage().contains("secret"), "credentials must not be echoed: " + userInfo.getMessage());
    }

    @Test
    void aPublicOriginResolvingToALoopbackAddressIsRefused() {
        IngestException e = refused(server.origin() + "/guide.md", new IngestPolicy(List.of(server.origin()), List.of()));
        assertEquals(403, e.status());
        assertTrue(e.getMessage().contains("127.0.0.1") && e.getMessage().contains("privateOrigins"), e.getMessage());
    }

    @Test
    void theConnectionGoesToTheAddressThatWasResolvedOnceNotToALaterAnswer() throws Exception {
        // A trap listening on 127.0.0.2 at the server's port: a fetch that asked the resolver again would connect there.
        try (ServerSocket trap = new ServerSocket(server.port(), 50, InetAddress.getByName("127.0.0.2"))) {
            AtomicInteger lookups = new AtomicInteger();
            UrlFetcher.HostResolver rebinding = host -> new InetAddress[] {InetAddress.getByAddress(host,
                    lookups.getAndIncrement() == 0 ? new byte[] {127, 0, 0, 1} : new byte[] {127, 0, 0, 2})};
            UrlFetcher pinned = new UrlFetcher(Duration.ofSeconds(10), 64 * 1024, server.clientTls(), rebinding);

            assertArrayEquals(GUIDE, pinned.fetch(server.origin() + "/guide.md", localAllowed).content());

            assertEquals(1, lookups.get(), "the host is resolved once, and that answer is the one connected to");
            trap.setSoTimeout(200);
            assertThrows(SocketTimeoutException.class, trap::accept, "nothing connected to the later answer");
        }
    }

    @Test
    void theCertificateIsCheckedAgainstTheUrlsHostNotTheAddress() throws Exception {
        // The pinned address is the test server's, but its certificate names localhost, not the URL's host.
        UrlFetcher.HostResolver toLocalServer = host -> new InetAddress[] {InetAddress.getByAddress(host, new byte[] {127, 0, 0, 1})};
        UrlFetcher pinned = new UrlFetcher(Duration.ofSeconds(10), 64 * 1024, server.clientTls(), toLocalServer);
        String origin = "https://docs.corpora.test:" + server.port();
        IngestException e = assertThrows(IngestException.class,
                () -> pinned.fetch(origin + "/guide.md", new IngestPolicy(List.of(), List.of(origin))));
        assertEquals(422, e.status());
        assertTrue(e.getMessage().contains("TLS") && e.getMessage().contains("docs.corpora.test"), e.getMessage());
    }

    @Test
    void aNameResolvingToAnIpv4MappedMetadataAddressIsRefused() throws Exception {
        AtomicInteger lookups = new AtomicInteger();
        UrlFetcher.HostResolver mixed = host -> {
            lookups.incrementAndGet();
            return new InetAddress[] {InetAddress.getByName("::ffff:169.254.169.254")};
        };
        UrlFetcher fetcher = new UrlFetcher(Duration.ofSeconds(10), 64 * 1024, server.clientTls(), mixed);
        String origin = "https://docs.corpora.test";
        IngestException e = assertThrows(IngestException.class,
                () -> fetcher.fetch(origin + "/guide.md", new IngestPolicy(List.of(origin), List.of())));
        assertEquals(403, e.status());
        assertTrue(e.getMessage().contains("169.254.169.254") && e.getMessage().contains("169.254.0.0/16"), e.getMessage());
        assertEquals(1, lookups.get());
    }

    @Test
    void aRedirectIsAnErrorNamingTheLocationAndIsNotFollowed() {
        IngestException e = refused(server.origin() + "/moved", localAllowed);
        assertEquals(422, e.status());
        assertEquals("url-redirected", e.type());
        assertTrue(e.getMessage().contains("302") && e.getMessage().contains(server.origin() + "/target"), e.getMessage());
        assertEquals(0, REDIRECT_TARGET_HITS.get(), "the redirect target must not be requested");
    }

    @Test
    void anErrorStatusIsReported() {
        IngestException e = refused(server.origin() + "/missing", localAllowed);
        assertEquals(422, e.status());
        assertTrue(e.getMessage().contains("404"), e.getMessage());
    }

    @Test
    void aBodyOverTheLimitIsRefusedWhetherDeclaredOrStreamed() {
        IngestException declared = refused(server.origin() + "/declared-large", localAllowed);
        assertEquals(413, declared.status());
        assertTrue(declared.getMessage().contains("200000 bytes") && declared.getMessage().contains("65536"), declared.getMessage());

        IngestException streamed = refused(server.origin() + "/streamed-large", localAllowed);
        assertEquals(413, streamed.status());
        assertTrue(streamed.getMessage().contains("65536"), streamed.getMessage());
    }

    @Test
    void aSlowServerTimesOut() throws Exception {
        UrlFetcher impatient = new UrlFetcher(Duration.ofMillis(800), 64 * 1024, server.clientTls());
        long start = System.nanoTime();
        IngestException e = assertThrows(IngestException.class, () -> impatient.fetch(server.origin() + "/slow", localAllowed));
        long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(504, e.status());
        assertEquals("url-timeout", e.type());
        assertTrue(e.getMessage().contains("800 ms"), e.getMessage());
        assertTrue(elapsedMillis < 2500, "gave up after " + elapsedMillis + " ms, the timeout is 800 ms; the server answers after 3000");
    }
}
