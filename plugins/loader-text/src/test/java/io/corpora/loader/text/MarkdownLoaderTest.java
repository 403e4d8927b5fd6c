package io.corpora.loader.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.loader.ContentFormat;
import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.DocumentLoadException.Reason;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.LoadRequest;
import io.corpora.spi.loader.LoadedDocument;
import io.corpora.testkit.Loaders;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MarkdownLoaderTest {

    private final DocumentLoader loader = Loaders.create("markdown", Map.of());

    private LoadedDocument load(String markdown) {
        return loader.load(new LoadRequest(markdown.getBytes(StandardCharsets.UTF_8), "text/markdown", null, "policy.md"));
    }

    private DocumentLoadException failure(String markdown) {
        return assertThrows(DocumentLoadException.class, () -> load(markdown));
    }

    @Test
    void providerDeclaresMarkdownTypes() {
        var provider = Loaders.provider("markdown");
        assertEquals(Set.of("text/markdown", "text/x-markdown"), provider.mediaTypes());
        assertTrue(provider.fileExtensions().contains("md"));
    }

    @Test
    void frontMatterBecomesMetadataAndTheBodyStaysMarkdown() {
        String body = "# Expense Policy\n\nIntro.\n\n## Lodging\n\nHotels up to 150 EUR.\n";
        LoadedDocument doc = load("""
                ---
                author: Ada Lovelace
                version: 3
                draft: false
                score: 4.5
                tags: [travel, finance]
                owners:
                  - alice
                  - bob
                review:
                  by: carol
                Last Updated: 2024-05-01
                empty:
                ---
                """ + body);
        assertEquals(ContentFormat.MARKDOWN, doc.format());
        assertEquals("Expense Policy", doc.title());
        assertEquals(body, doc.sections().get(0).text());
        Map<String, Object> metadata = doc.metadata();
        assertEquals("Ada Lovelace", metadata.get("author"));
        assertEquals(3, metadata.get("version"));
        assertEquals(false, metadata.get("draft"));
        assertEquals(4.5, metadata.get("score"));
        assertEquals(List.of("travel", "finance"), metadata.get("tags"));
        assertEquals(List.of("alice", "bob"), metadata.get("owners"));
        assertEquals("carol", metadata.get("review.by"));
        assertEquals("2024-05-01", metadata.get("Last_Updated"));
        assertTrue(!metadata.containsKey("empty"), "a key without a value carries nothing");
    }

    @Test
    void titleComesFromTheFirstH1OutsideCodeFences() {
        assertEquals("Real Title", load("Intro text\n\n```\n# not a heading\n```\n\n## Sub\n\n# Real Title #\n").title());
        assertEquals("Setext Title", load("Setext Title\n============\n\nBody\n").title());
        assertNull(load("## Only a subheading\n\ntext\n").title());
    }

    @Test
    void frontMatterTitleIsTheFallback() {
        assertEquals("From Front Matter", load("---\ntitle: From Front Matter\n---\nJust text.\n").title());
    }

    @Test
    void leadingThematicBreakWithoutClosingLineIsBodyNotFrontMatter() {
        LoadedDocument doc = load("---\nnot: front matter because nothing closes it\n");
        assertEquals("---\nnot: front matter because nothing closes it\n", doc.sections().get(0).text());
        assertEquals(Map.of("charset", "UTF-8"), doc.metadata());
    }

    @Test
    void aReservedKeyInFrontMatterRefusesTheDocumentNamingTheKey() {
        // Content never sets the server's keys: the document is refused (422 at ingest), not silently stripped.
        DocumentLoadException e = failure("---\n_tenant: other\naudience: public\n---\nBody.\n");
        assertEquals(Reason.MALFORMED, e.reason());
        assertTrue(e.getMessage().contains("'_tenant'") && e.getMessage().contains("reserved"), e.getMessage());
    }

    @Test
    void invalidYamlIsMalformedNamingTheFrontMatter() {
        DocumentLoadException e = failure("---\ntags: [a, b\n---\nbody\n");
        assertEquals(Reason.MALFORMED, e.reason());
        assertTrue(e.getMessage().startsWith("the front matter of 'policy.md' is not valid YAML"), e.getMessage());
    }

    @Test
    void duplicateKeysAreMalformed() {
        assertEquals(Reason.MALFORMED, failure("---\na: 1\na: 2\n---\nbody\n").reason());
    }

    @Test
    void listOfMappingsIsRefusedNamingTheKey() {
        DocumentLoadException e = failure("---\nauthors:\n  - name: a\n---\nbody\n");
        assertEquals(Reason.MALFORMED, e.reason());
        assertTrue(e.getMessage().contains("front matter key 'authors'"), e.getMessage());
    }

    @Test
    void aliasBombInFrontMatterIsRefused() {
        StringBuilder yaml = new StringBuilder("---\na: &a [x, x, x, x, x, x, x, x, x, x]\n");
        char previous = 'a';
        for (char c = 'b'; c <= 'j'; c++) {
            yaml.append(c).append(": &").append(c).append(" [");
            for (int i = 0; i < 10; i++) {
                yaml.append(i == 0 ? "" : ", ").append('*').append(previous);
            }
            yaml.append("]\n");
            previous = c;
        }
        DocumentLoadException e = failure(yaml + "---\nbody\n");
        assertEquals(Reason.MALFORMED, e.reason());
    }

    @Test
    void frontMatterThatIsNotKeyValuePairsIsMalformed() {
        DocumentLoadException e = failure("---\n- just\n- a list\n---\nbody\n");
        assertTrue(e.getMessage().contains("must be 'key: value' lines"), e.getMessage());
    }

    @Test
    void frontMatterWithoutBodyHasNoText() {
        DocumentLoadException e = failure("---\ntitle: x\n---\n\n");
        assertTrue(e.getMessage().contains("contains no text"), e.getMessage());
    }

    @Test
    void invalidUtf8InMarkdownIsMalformedToo() {
        byte[] bytes = {'#', ' ', 'T', (byte) 0xFF, '\n'};
        DocumentLoadException e = assertThrows(DocumentLoadException.class,
                () -> loader.load(new LoadRequest(bytes, "text/markdown", null, "bad.md")));
        assertEquals(Reason.MALFORMED, e.reason());
        assertTrue(e.getMessage().contains("offset 3"), e.getMessage());
    }
}
