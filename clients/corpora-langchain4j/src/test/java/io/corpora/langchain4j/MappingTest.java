package io.corpora.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.data.document.Document;
import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import io.corpora.client.model.Citation;
import io.corpora.client.model.DocumentInput;
import io.corpora.client.model.Passage;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Passages to LangChain4j content, and LangChain4j documents to Corpora documents. */
class MappingTest {

    @Test
    void aPassageBecomesContentWithItsCitationAsMetadata() {
        Passage passage = new Passage("keys.md#0", "Rotate every ninety days.", 0.82, "https://acme.example/keys.md",
                Map.of("lang", "en", "year", 2024, "tags", List.of("a", "b"), "documentId", "spoofed"),
                new Citation(1, "keys.md", 0, "https://acme.example/keys.md", List.of("Security", "Key rotation"), 3));
        Content content = CorporaContentRetriever.content(passage);
        Metadata metadata = content.textSegment().metadata();
        assertEquals("Rotate every ninety days.", content.textSegment().text());
        assertEquals("keys.md", metadata.getString("documentId"), "the citation wins over passage metadata of the same name");
        assertEquals("Security > Key rotation", metadata.getString("headingPath"));
        assertEquals("https://acme.example/keys.md", metadata.getString("source"));
        assertEquals(0, metadata.getInteger("chunkIndex"));
        assertEquals(0.82, metadata.getDouble("score"));
        assertEquals(0.82, content.metadata().get(ContentMetadata.SCORE));
        assertEquals(2024, metadata.getInteger("year"));
        assertEquals("[a, b]", metadata.getString("tags"));
        assertEquals(3, metadata.getInteger("page"));
    }

    @Test
    void aPassageWithoutHeadingsHasNoHeadingPath() {
        Passage passage = new Passage("p", "t", 0.1, null, Map.of(), new Citation(1, "d", 2, "s.txt", null, null));
        Metadata metadata = CorporaContentRetriever.content(passage).textSegment().metadata();
        assertFalse(metadata.containsKey("headingPath"));
        assertEquals("s.txt", metadata.getString("source"), "the citation's source when the passage has none");
    }

    @Test
    void aDocumentsIdIsItsIdThenFileNameThenUrlThenItsTextsHash() {
        DocumentInput explicit = CorporaDocumentIngestor.input(Document.from("x", Metadata.from("id", "doc-1").put("file_name", "a.md")));
        assertEquals("doc-1", explicit.id());
        assertFalse(explicit.metadata().containsKey("id"), "the id is not sent again as metadata");
        assertEquals("markdown", explicit.format());
        DocumentInput named = CorporaDocumentIngestor.input(Document.from("x", Metadata.from("file_name", "page.html").put("url", "https://e.x/p")));
        assertEquals("page.html", named.id());
        assertEquals("https://e.x/p", named.source());
        assertEquals("html", named.format());
        DocumentInput anonymous = CorporaDocumentIngestor.input(Document.from("same text"));
        assertEquals(anonymous.id(), CorporaDocumentIngestor.input(Document.from("same text")).id());
        assertTrue(anonymous.id().startsWith("sha256-"));
        assertNull(anonymous.metadata());
        assertNull(anonymous.format());
    }
}
