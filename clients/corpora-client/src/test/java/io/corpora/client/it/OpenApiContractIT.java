package io.corpora.client.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.corpora.client.model.AnswerCitation;
import io.corpora.client.model.AskDiagnostics;
import io.corpora.client.model.AskRequest;
import io.corpora.client.model.AskResponse;
import io.corpora.client.model.AskTransform;
import io.corpora.client.model.AskUsage;
import io.corpora.client.model.Chunk;
import io.corpora.client.model.Citation;
import io.corpora.client.model.CorpusStats;
import io.corpora.client.model.Diagnostics;
import io.corpora.client.model.Document;
import io.corpora.client.model.DocumentChunks;
import io.corpora.client.model.DocumentPage;
import io.corpora.client.model.Evaluation;
import io.corpora.client.model.EvaluationActor;
import io.corpora.client.model.EvaluationActorUsed;
import io.corpora.client.model.EvaluationCandidateRequest;
import io.corpora.client.model.EvaluationCandidateResult;
import io.corpora.client.model.EvaluationComparison;
import io.corpora.client.model.EvaluationFingerprint;
import io.corpora.client.model.EvaluationFusion;
import io.corpora.client.model.EvaluationFusionUsed;
import io.corpora.client.model.EvaluationJudgedSet;
import io.corpora.client.model.EvaluationList;
import io.corpora.client.model.EvaluationProgress;
import io.corpora.client.model.EvaluationQueryScore;
import io.corpora.client.model.EvaluationRequest;
import io.corpora.client.model.EvaluationWorseQuery;
import io.corpora.client.model.IndexChunkIds;
import io.corpora.client.model.IndexMissing;
import io.corpora.client.model.IndexMissingDocument;
import io.corpora.client.model.IndexReport;
import io.corpora.client.model.IngestOutcome;
import io.corpora.client.model.Job;
import io.corpora.client.model.JobList;
import io.corpora.client.model.JobReembed;
import io.corpora.client.model.Passage;
import io.corpora.client.model.Refusal;
import io.corpora.client.model.RetrievalBatchResult;
import io.corpora.client.model.RetrievalLeg;
import io.corpora.client.model.RetrievalResult;
import io.corpora.client.model.RetrieveBatchRequest;
import io.corpora.client.model.RetrieveRequest;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The client's records and the running server's OpenAPI document ({@code GET /openapi}, generated from the server's
 * response records) agree: every response record names a schema with exactly its components as properties, of
 * compatible JSON types; every request record's components are properties of the request schema. Renaming, adding or
 * retyping a field on either side fails here.
 */
class OpenApiContractIT {

    /** Response records: the client's name is the schema's. */
    static final List<Class<? extends Record>> RESPONSES = List.of(RetrievalResult.class, Passage.class, Citation.class,
            Diagnostics.class, RetrievalLeg.class, Refusal.class, RetrievalBatchResult.class, IngestOutcome.class, Job.class,
            JobReembed.class, JobList.class, Document.class, DocumentPage.class, Chunk.class, DocumentChunks.class, CorpusStats.class,
            AskResponse.class, AnswerCitation.class, AskUsage.class, AskDiagnostics.class, AskTransform.class, IndexReport.class,
            IndexMissing.class, IndexChunkIds.class, IndexMissingDocument.class, Evaluation.class, EvaluationActorUsed.class, EvaluationJudgedSet.class,
            EvaluationProgress.class, EvaluationCandidateResult.class, EvaluationFusionUsed.class, EvaluationFingerprint.class,
            EvaluationComparison.class, EvaluationWorseQuery.class, EvaluationQueryScore.class, EvaluationList.class);
    /** Request records: the client sends a subset of what the server reads. */
    static final List<Class<? extends Record>> REQUESTS = List.of(RetrieveRequest.class, RetrieveBatchRequest.class, AskRequest.class,
            EvaluationRequest.class, EvaluationCandidateRequest.class, EvaluationFusion.class, EvaluationActor.class);

    private static JsonNode schemas;

    @BeforeAll
    static void document() throws Exception {
        JsonNode openApi = new ObjectMapper().readTree(RunningCorpora.get().get("openapi?format=JSON"));
        schemas = openApi.path("components").path("schemas");
        assertNotNull(schemas.get("Problem"), "the document has no components.schemas: " + openApi.toString().substring(0, 200));
    }

    @Test
    void everyResponseRecordMatchesItsSchemaExactly() {
        List<String> disagreements = new ArrayList<>();
        for (Class<? extends Record> type : RESPONSES) {
            JsonNode properties = properties(type, disagreements);
            if (properties == null) {
                continue;
            }
            TreeSet<String> server = new TreeSet<>();
            properties.fieldNames().forEachRemaining(server::add);
            TreeSet<String> client = new TreeSet<>();
            for (RecordComponent component : type.getRecordComponents()) {
                client.add(component.getName());
            }
            if (!server.equals(client)) {
                disagreements.add(type.getSimpleName() + ": server has " + server + ", client has " + client);
            }
            compareTypes(type, properties, disagreements);
        }
        assertEquals(List.of(), disagreements);
    }

    @Test
    void everyRequestRecordSendsOnlyWhatTheServerReads() {
        List<String> disagreements = new ArrayList<>();
        for (Class<? extends Record> type : REQUESTS) {
            JsonNode properties = properties(type, disagreements);
            if (properties == null) {
                continue;
            }
            for (RecordComponent component : type.getRecordComponents()) {
                if (!properties.has(component.getName())) {
                    disagreements.add(type.getSimpleName() + "." + component.getName() + " is not a property the server reads");
                }
            }
            compareTypes(type, properties, disagreements);
        }
        assertEquals(List.of(), disagreements);
    }

    private static JsonNode properties(Class<?> type, List<String> disagreements) {
        JsonNode schema = schemas.get(type.getSimpleName());
        if (schema == null) {
            disagreements.add("no schema " + type.getSimpleName() + " in GET /openapi (schemas: " + names(schemas) + ")");
            return null;
        }
        return schema.path("properties");
    }

    private static void compareTypes(Class<?> type, JsonNode properties, List<String> disagreements) {
        for (RecordComponent component : type.getRecordComponents()) {
            JsonNode property = properties.get(component.getName());
            if (property == null) {
                continue;
            }
            if (property.has("allOf") && property.get("allOf").size() == 1) {
                property = property.get("allOf").get(0); // a reference with its own annotations
            }
            String expected = jsonType(component.getGenericType());
            String actual = property.has("$ref") ? "ref:" + property.get("$ref").asText().replace("#/components/schemas/", "")
                    : property.path("type").asText("any");
            if (expected.startsWith("array:") && "array".equals(actual)) {
                JsonNode items = property.path("items");
                actual = "array:" + (items.has("$ref") ? "ref:" + items.get("$ref").asText().replace("#/components/schemas/", "")
                        : items.path("type").asText("any"));
            }
            if (!expected.equals(actual) && !"any".equals(expected)) {
                disagreements.add(type.getSimpleName() + "." + component.getName() + ": server " + actual + ", client " + expected);
            }
        }
    }

    /** The OpenAPI type a Java component maps to: scalars by kind, records by schema reference, lists by item type. */
    private static String jsonType(Type type) {
        if (type instanceof ParameterizedType parameterized) {
            Class<?> raw = (Class<?>) parameterized.getRawType();
            if (List.class.isAssignableFrom(raw)) {
                return "array:" + jsonType(parameterized.getActualTypeArguments()[0]);
            }
            if (Map.class.isAssignableFrom(raw)) {
                return "object";
            }
        }
        Class<?> c = (Class<?>) type;
        if (c == String.class) {
            return "string";
        }
        if (c == int.class || c == Integer.class || c == long.class || c == Long.class) {
            return "integer";
        }
        if (c == double.class || c == Double.class) {
            return "number";
        }
        if (c == boolean.class || c == Boolean.class) {
            return "boolean";
        }
        if (c.isRecord()) {
            return "ref:" + c.getSimpleName();
        }
        return "any";
    }

    private static String names(JsonNode node) {
        TreeSet<String> names = new TreeSet<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names.toString();
    }
}
