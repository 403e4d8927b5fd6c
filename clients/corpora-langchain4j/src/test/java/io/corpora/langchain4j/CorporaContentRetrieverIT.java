package io.corpora.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.data.document.Document;
import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.rag.AugmentationRequest;
import dev.langchain4j.rag.AugmentationResult;
import dev.langchain4j.rag.DefaultRetrievalAugmentor;
import dev.langchain4j.rag.RetrievalAugmentor;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import io.corpora.client.CorporaClient;
import io.corpora.client.CorporaProblemException;
import io.corpora.client.RetryPolicy;
import io.corpora.client.it.RunningCorpora;
import io.corpora.client.model.Job;
import io.corpora.client.model.RetrieveOptions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * LangChain4j's own retrieval pipeline (DefaultRetrievalAugmentor: query transformer, router, Corpora as the content
 * retriever, aggregator, content injector) against a running Corpora, up to the user message a chat model would get.
 */
class CorporaContentRetrieverIT {

    private static final String QUESTION = "How often are the signing keys rotated?";
    private static RunningCorpora corpora;
    private static CorporaClient acme;
    private static CorporaClient globex;

    @BeforeAll
    static void ingestThroughTheHelper() throws Exception {
        corpora = RunningCorpora.get();
        String acmeId = corpora.createTenant("lc4j-acme", java.util.Map.of());
        String globexId = corpora.createTenant("lc4j-globex", java.util.Map.of());
        acme = corpora.client(acmeId, "writer", "reader");
        globex = corpora.client(globexId, "writer", "reader");
        List<Job> jobs = new CorporaDocumentIngestor(acme, Duration.ofMinutes(2)).ingest(List.of(
                Document.from("# Security\n\n## Key rotation\n\nAcme rotates the signing keys every ninety days.",
                        Metadata.from("file_name", "security.md").put("url", "https://acme.example/security.md").put("team", "platform")),
                Document.from("The cafeteria opens at eight.", Metadata.from("id", "cafeteria"))));
        assertEquals("SUCCEEDED", jobs.get(0).status(), jobs.toString());
        new CorporaDocumentIngestor(globex, Duration.ofMinutes(2)).ingest(List.of(
                Document.from("Globex rotates the signing keys every seven days.", Metadata.from("id", "globex-keys"))));
    }

    @Test
    void theAugmentedUserMessageCarriesTheTenantsPassages() {
        RetrievalAugmentor augmentor = DefaultRetrievalAugmentor.builder()
                .contentRetriever(new CorporaContentRetriever(acme, RetrieveOptions.DEFAULTS.withTopK(1)))
                .build();
        UserMessage question = UserMessage.from(QUESTION);
        AugmentationResult result = augmentor.augment(new AugmentationRequest(question,
                dev.langchain4j.rag.query.Metadata.from(question, "session-1", List.of())));

        UserMessage prompt = assertInstanceOf(UserMessage.class, result.chatMessage());
        String text = prompt.singleText();
        assertTrue(text.startsWith(QUESTION), text);
        assertTrue(text.contains("Acme rotates the signing keys every ninety days."), text);
        assertFalse(text.contains("seven days"), "another tenant's passage reached the prompt: " + text);
        assertFalse(text.contains("cafeteria"), "topK 1: " + text);

        Content content = result.contents().get(0);
        Metadata metadata = content.textSegment().metadata();
        assertEquals("security.md", metadata.getString(CorporaContentRetriever.DOCUMENT_ID));
        assertEquals("https://acme.example/security.md", metadata.getString(CorporaContentRetriever.SOURCE));
        assertTrue(metadata.getString(CorporaContentRetriever.HEADING_PATH).endsWith("Key rotation"), metadata.toString());
        assertEquals("platform", metadata.getString("team"));
        double score = (Double) content.metadata().get(ContentMetadata.SCORE);
        assertEquals(score, metadata.getDouble(CorporaContentRetriever.SCORE));
    }

    @Test
    void anotherTenantsTokenRetrievesOnlyItsOwnContent() {
        List<Content> contents = new CorporaContentRetriever(globex).retrieve(dev.langchain4j.rag.query.Query.from(QUESTION));
        assertEquals(List.of("globex-keys"), contents.stream().map(c -> c.textSegment().metadata().getString("documentId")).distinct().toList());
    }

    @Test
    void aRefusedRetrievalFailsTheAugmentationInsteadOfAnsweringFromNothing() {
        CorporaClient wrongTenant = CorporaClient.builder(corpora.baseUri(), acme.tenant())
                .token(corpora.token("intruder", globex.tenant(), "reader")).retries(RetryPolicy.NONE).build();
        RetrievalAugmentor augmentor = DefaultRetrievalAugmentor.builder()
                .contentRetriever(new CorporaContentRetriever(wrongTenant)).build();
        UserMessage question = UserMessage.from(QUESTION);
        RuntimeException failure = assertThrows(RuntimeException.class, () -> augmentor.augment(new AugmentationRequest(question,
                dev.langchain4j.rag.query.Metadata.from(question, "session-2", List.of()))));
        Throwable cause = failure;
        while (cause != null && !(cause instanceof CorporaProblemException)) {
            cause = cause.getCause();
        }
        assertEquals(403, assertInstanceOf(CorporaProblemException.class, cause, failure.toString()).status());
    }
}
