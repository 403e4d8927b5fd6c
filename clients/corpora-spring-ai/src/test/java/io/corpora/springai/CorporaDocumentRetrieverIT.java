package io.corpora.springai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.client.CorporaClient;
import io.corpora.client.CorporaProblemException;
import io.corpora.client.RetryPolicy;
import io.corpora.client.it.RunningCorpora;
import io.corpora.client.model.DocumentInput;
import io.corpora.client.model.RetrieveOptions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.document.Document;
import org.springframework.ai.rag.Query;
import org.springframework.ai.rag.advisor.RetrievalAugmentationAdvisor;

/**
 * Spring AI's RetrievalAugmentationAdvisor with Corpora as its document retriever, against a running Corpora, up to the
 * augmented prompt a chat model would get (the advisor's before step; no model runs here).
 */
class CorporaDocumentRetrieverIT {

    private static final String QUESTION = "How often are the signing keys rotated?";
    private static RunningCorpora corpora;
    private static CorporaClient acme;
    private static CorporaClient globex;

    @BeforeAll
    static void twoTenants() throws Exception {
        corpora = RunningCorpora.get();
        acme = corpora.client(corpora.createTenant("sai-acme", Map.of()), "writer", "reader");
        globex = corpora.client(corpora.createTenant("sai-globex", Map.of()), "writer", "reader");
        acme.ingest(DocumentInput.text("security.md", "# Security\n\n## Key rotation\n\nAcme rotates the signing keys every ninety days.")
                .withFormat("markdown").withSource("https://acme.example/security.md").withMetadata(Map.of("team", "platform")));
        acme.ingest(DocumentInput.text("cafeteria.txt", "The cafeteria opens at eight."));
        globex.ingest(DocumentInput.text("globex-keys.txt", "Globex rotates the signing keys every seven days."));
    }

    @Test
    void theAdvisorsAugmentedPromptCarriesTheTenantsPassages() {
        RetrievalAugmentationAdvisor advisor = RetrievalAugmentationAdvisor.builder()
                .documentRetriever(new CorporaDocumentRetriever(acme, RetrieveOptions.DEFAULTS.withTopK(1)))
                .build();
        ChatClientRequest request = ChatClientRequest.builder().prompt(new Prompt(QUESTION)).context(Map.of()).build();
        ChatClientRequest augmented = advisor.before(request, null);

        String prompt = augmented.prompt().getUserMessage().getText();
        assertTrue(prompt.contains("Acme rotates the signing keys every ninety days."), prompt);
        assertTrue(prompt.contains(QUESTION), prompt);
        assertFalse(prompt.contains("seven days"), "another tenant's passage reached the prompt: " + prompt);
        assertFalse(prompt.contains("cafeteria"), "topK 1: " + prompt);

        @SuppressWarnings("unchecked")
        List<Document> documents = (List<Document>) augmented.context().get(RetrievalAugmentationAdvisor.DOCUMENT_CONTEXT);
        Document top = documents.get(0);
        assertEquals("security.md", top.getMetadata().get(CorporaDocumentRetriever.DOCUMENT_ID));
        assertEquals("https://acme.example/security.md", top.getMetadata().get(CorporaDocumentRetriever.SOURCE));
        assertTrue(((List<?>) top.getMetadata().get(CorporaDocumentRetriever.HEADING_PATH)).contains("Key rotation"), top.getMetadata().toString());
        assertEquals("platform", top.getMetadata().get("team"));
        assertTrue(top.getScore() != null && top.getScore() > 0, String.valueOf(top.getScore()));
    }

    @Test
    void anotherTenantsTokenRetrievesOnlyItsOwnDocuments() {
        List<Document> documents = new CorporaDocumentRetriever(globex).retrieve(new Query(QUESTION));
        assertEquals(List.of("globex-keys.txt"), documents.stream().map(d -> d.getMetadata().get("documentId")).distinct().toList());
    }

    @Test
    void aRefusedRetrievalIsAProblemNotAnEmptyContext() {
        CorporaClient wrongTenant = CorporaClient.builder(corpora.baseUri(), acme.tenant())
                .token(corpora.token("intruder", globex.tenant(), "reader")).retries(RetryPolicy.NONE).build();
        CorporaProblemException refused = assertThrows(CorporaProblemException.class,
                () -> new CorporaDocumentRetriever(wrongTenant).retrieve(new Query(QUESTION)));
        assertEquals(403, refused.status());
    }
}
