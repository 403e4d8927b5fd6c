package io.corpora.springai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.corpora.client.model.Citation;
import io.corpora.client.model.Passage;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.ai.document.Document;

/** Passages to Spring AI documents. */
class MappingTest {

    @Test
    void aPassageBecomesADocumentWithItsCitationAsMetadata() {
        Map<String, Object> own = new HashMap<>(Map.of("lang", "en", "documentId", "spoofed"));
        own.put("empty", null); // Spring AI refuses null metadata values
        Passage passage = new Passage("keys.md#0", "Rotate every ninety days.", 0.82, null, own,
                new Citation(1, "keys.md", 0, "https://acme.example/keys.md", List.of("Security", "Key rotation"), null));
        Document document = CorporaDocumentRetriever.document(passage);
        assertEquals("keys.md#0", document.getId());
        assertEquals("Rotate every ninety days.", document.getText());
        assertEquals(0.82, document.getScore());
        assertEquals("keys.md", document.getMetadata().get("documentId"));
        assertEquals("https://acme.example/keys.md", document.getMetadata().get("source"));
        assertEquals(List.of("Security", "Key rotation"), document.getMetadata().get("headingPath"));
        assertEquals("en", document.getMetadata().get("lang"));
        assertFalse(document.getMetadata().containsKey("empty"));
        assertFalse(document.getMetadata().containsKey("page"));
    }
}
