package io.corpora.loader.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.corpora.spi.loader.ContentFormat;
import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.DocumentLoadException.Reason;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.DocumentLoaderProvider;
import io.corpora.spi.loader.LoadRequest;
import io.corpora.spi.loader.LoadedDocument;
import io.corpora.testkit.Loaders;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class HtmlLoaderTest {

    private static DocumentLoaderProvider provider() {
        return Loaders.provider("html");
    }

    private static DocumentLoader loader(Map<String, String> options) {
        return Loaders.create("html", options);
    }

    private final DocumentLoader loader = loader(Map.of());

    private LoadedDocument load(String html) {
        return load(html.getBytes(StandardCharsets.UTF_8), null);
    }

    private LoadedDocument load(byte[] html, String charset) {
        return loader.load(new LoadRequest(html, "text/html", charset, "page.html"));
    }

    private static byte[] fixture(String name) throws IOException {
        try (InputStream in = HtmlLoaderTest.class.getResourceAsStream("/fixtures/" + name)) {
            return in.readAllBytes();
        }
    }

    @Test
    void providerDeclaresHtmlTypes() {
        assertEquals(Set.of("text/html", "application/xhtml+xml"), provider().mediaTypes());
        assertEquals(Set.of("html", "htm", "xhtml"), provider().fileExtensions());
    }

    @Test
    void mainContentBecomesMarkdownWithoutBoilerplate() throws IOException {
        LoadedDocument doc = load(fixture("handbook-page.html"), null);
        assertEquals(ContentFormat.MARKDOWN, doc.format());
        assertEquals("Expense Policy | Example Corp Handbook", doc.title());
        assertEquals("""
                # Expense Policy

                This policy applies to all employees and contractors travelling on company business.

                ## Lodging

                Hotels up to 150\u00a0EUR per night.
                Longer stays need approval.

                - Book through the travel portal.
                - Keep receipts
                  1. Scan them
                  2. Upload within 30 days

                ## Mileage

                Vehicle | Rate
                Car | 0.30 EUR/km

                ```
                claim --type mileage --km 120
                claim --submit
                ```

                \\#1 rule: ask first.""", doc.sections().get(0).text());
        assertEquals(Map.of("charset", "UTF-8", "language", "en", "description", "How we book travel and claim expenses."),
                doc.metadata());
    }

    @Test
    void singleArticleIsTheContentAndItsOwnHeaderStays() {
        LoadedDocument doc = load("""
                <html><body><header>Site banner</header><nav>Menu</nav>
                <article><header><h1>Release notes</h1><p>March</p></header><p>Faster search.</p><footer>Posted by Ana</footer></article>
                <footer>Copyright</footer></body></html>""");
        assertEquals("# Release notes\n\nMarch\n\nFaster search.\n\nPosted by Ana", doc.sections().get(0).text());
        assertEquals("Release notes", doc.title());
    }

    @Test
    void withoutMainOrSingleArticleTheBodyIsUsedMinusBanners() {
        LoadedDocument doc = load("<html><body><header>Banner</header><article><p>One</p></article>"
                + "<article><p>Two</p></article><footer>Foot</footer></body></html>");
        assertEquals("One\n\nTwo", doc.sections().get(0).text());
        assertNull(doc.title());
    }

    @Test
    void titleBecomesTheTopHeadingWhenTheContentHasNone() {
        LoadedDocument doc = load("<html><head><title>FAQ</title></head><body><h2>Billing</h2><p>Monthly.</p></body></html>");
        assertEquals("# FAQ\n\n## Billing\n\nMonthly.", doc.sections().get(0).text());
    }

    @Test
    void nothingIsFetchedWhileLoading() throws IOException {
        AtomicInteger requests = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            requests.incrementAndGet();
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
        try {
            String base = "http://127.0.0.1:" + server.getAddress().getPort();
            load("<html><head><link rel=stylesheet href='" + base + "/a.css'><script src='" + base + "/a.js'></script>"
                    + "<base href='" + base + "/'></head><body><p>Text <img src='" + base + "/i.png'></p>"
                    + "<iframe src='" + base + "/frame'></iframe><object data='" + base + "/o'></object>"
                    + "<a href='" + base + "/link'>link</a></body></html>");
        } finally {
            server.stop(0);
        }
        assertEquals(0, requests.get(), "the loader made HTTP requests");
    }

    @Test
    void metaCharsetAndDeclaredCharsetAreHonoured() {
        byte[] latin = "<html><head><meta charset=\"windows-1252\"></head><body><p>caf\u00e9 \u20ac5</p></body></html>"
                .getBytes(java.nio.charset.Charset.forName("windows-1252"));
        assertEquals("café €5", load(latin, null).sections().get(0).text());
        byte[] undeclared = "<p>na\u00efve</p>".getBytes(StandardCharsets.ISO_8859_1);
        assertEquals("naïve", load(undeclared, "ISO-8859-1").sections().get(0).text());
    }

    @Test
    void unknownDeclaredCharsetIsUnsupported() {
        DocumentLoadException e = assertThrows(DocumentLoadException.class, () -> load("<p>x</p>".getBytes(StandardCharsets.UTF_8), "no-such-charset"));
        assertEquals(Reason.UNSUPPORTED, e.reason());
    }

    @Test
    void deeplyNestedMarkupLoadsWithoutStackOverflow() {
        String html = "<div>".repeat(1_000) + "deep text" + "</div>".repeat(1_000);
        assertEquals("deep text", load(html).sections().get(0).text());
    }

    @Test
    void nestedTagBombIsAbandonedAtTheTimeoutWhileParsing() {
        // jsoup needs minutes for a few megabytes of unclosed nested tags; the deadline is checked as it reads.
        byte[] bomb = "<div>".repeat(400_000).getBytes(StandardCharsets.US_ASCII);
        long start = System.nanoTime();
        DocumentLoadException e = assertThrows(DocumentLoadException.class,
                () -> loader(Map.of("timeout", "300ms")).load(new LoadRequest(bomb, "text/html", null, "bomb.html")));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(Reason.TIMEOUT, e.reason());
        assertTrue(e.getMessage().contains("while parsing the HTML"), e.getMessage());
        assertTrue(millis < 5_000, "gave up only after " + millis + " ms");
    }

    @Test
    void pageWithoutContentHasNoText() {
        DocumentLoadException e = assertThrows(DocumentLoadException.class,
                () -> load("<html><body><nav>Menu</nav><script>var x;</script></body></html>"));
        assertEquals(Reason.MALFORMED, e.reason());
        assertTrue(e.getMessage().contains("contains no text"), e.getMessage());
    }

    @Test
    void oversizePageIsTooLarge() {
        DocumentLoadException e = assertThrows(DocumentLoadException.class,
                () -> loader(Map.of("maxBytes", "10")).load(new LoadRequest(new byte[11], "text/html", null, "big.html")));
        assertEquals(Reason.TOO_LARGE, e.reason());
    }

    @Test
    void emptyHeadingsAndWhitespaceLeaveNoMarkers() {
        assertEquals("Body text", load("<h2>  </h2><p>  Body\n\n   text </p>").sections().get(0).text());
    }
}
