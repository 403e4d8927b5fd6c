package io.corpora.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.store.ChunkPage;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchRequest;
import io.corpora.spi.store.StoreCapability;
import io.corpora.spi.store.VectorStore;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The behaviour every {@link VectorStore} must show, as a reusable JUnit 5 suite. A store plugin extends this
 * class and supplies a factory; the suite creates the stores it needs, uses fresh random tenant ids in every test
 * (so a store backed by a shared database needs no cleanup between tests) and closes every store afterwards.
 *
 * <p>The oracle for filters is {@link MetadataFilter#matches}; the oracle for vector scores is
 * {@link VectorSimilarity#score}; the oracle for vector ranking is a brute-force exact search. Corpora are small
 * (tens to a few hundred chunks, {@link #dimension()} 8 by default), so an approximate index is expected to be
 * exact here. Keyword tests run only when the store declares {@link StoreCapability#KEYWORD_SEARCH}.
 */
public abstract class VectorStoreContract {

    /** Tolerance between a store's score and the double-precision oracle (stores compute in float). */
    protected static final double SCORE_TOLERANCE = 1e-4;

    private final List<VectorStore> opened = new ArrayList<>();
    private final String run = "t" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffffL);
    private VectorStore defaultStore;

    /**
     * A new, open store using the metric and vector width given. Each call may return a store over fresh
     * storage, or over storage shared with earlier calls: the suite isolates tests by tenant id.
     */
    protected abstract VectorStore newStore(VectorSimilarity metric, int dimension) throws Exception;

    /** The vector width the suite uses. */
    protected int dimension() {
        return 8;
    }

    /** The metric of the default store most tests use. */
    protected VectorSimilarity defaultMetric() {
        return VectorSimilarity.COSINE;
    }

    /** The metrics the score-contract test runs with; a store that serves fewer narrows this. */
    protected Set<VectorSimilarity> supportedMetrics() {
        return EnumSet.allOf(VectorSimilarity.class);
    }

    /** Whether chunks without an embedding (keyword-only) can be stored. */
    protected boolean acceptsChunksWithoutEmbeddings() {
        return true;
    }

    @AfterEach
    void closeStores() {
        for (VectorStore store : opened) {
            store.close();
        }
        opened.clear();
    }

    /** The store most tests use, created on first use. */
    protected final synchronized VectorStore store() throws Exception {
        if (defaultStore == null) {
            defaultStore = open(defaultMetric());
        }
        return defaultStore;
    }

    private VectorStore open(VectorSimilarity metric) throws Exception {
        VectorStore store = newStore(metric, dimension());
        opened.add(store);
        return store;
    }

    /** A tenant namespace unique to this test run. */
    protected final Namespace tenant(String name) {
        return Namespace.of(run + "-" + name);
    }

    protected final Namespace partition(String tenant, String partition) {
        return Namespace.of(run + "-" + tenant, partition);
    }

    // ---------------------------------------------------------------------------------------------- helpers

    protected static Chunk chunk(String documentId, int index, String text, Map<String, ?> metadata) {
        return new Chunk(documentId + "#" + index, documentId, index, text, List.of(), metadata == null ? Map.of() : Map.copyOf(metadata));
    }

    protected static EmbeddedChunk embedded(Chunk chunk, float[] vector) {
        return new EmbeddedChunk(chunk, vector);
    }

    private static List<String> ids(List<ScoredChunk> hits) {
        return hits.stream().map(h -> h.chunk().id()).toList();
    }

    private List<ScoredChunk> vectorSearch(Namespace ns, float[] query, int topK, MetadataFilter filter) throws Exception {
        List<ScoredChunk> hits = store().search(ns, SearchRequest.vector(query, topK, filter, null, null));
        assertScoreContract(hits);
        return hits;
    }

    /** Finite scores, sorted descending, ties by chunk id. */
    protected static void assertScoreContract(List<ScoredChunk> hits) {
        for (int i = 0; i < hits.size(); i++) {
            ScoredChunk hit = hits.get(i);
            assertTrue(Double.isFinite(hit.score()), "score of " + hit.chunk().id() + " is not finite");
            if (i > 0) {
                ScoredChunk previous = hits.get(i - 1);
                assertTrue(previous.score() >= hit.score(), "hits not sorted by descending score at " + i + ": " + ids(hits));
                if (previous.score() == hit.score()) {
                    assertTrue(previous.chunk().id().compareTo(hit.chunk().id()) < 0,
                            "equal scores not ordered by chunk id: " + previous.chunk().id() + " before " + hit.chunk().id());
                }
            }
        }
    }

    /** Metadata equal with numbers compared by value (stores may widen int to long or double). */
    protected static void assertSameMetadata(Map<String, ?> expected, Map<String, ?> actual, String what) {
        assertEquals(expected.keySet(), actual.keySet(), what + ": metadata keys");
        expected.forEach((key, value) -> assertTrue(sameValue(value, actual.get(key)),
                what + ": metadata '" + key + "' expected " + value + " but was " + actual.get(key)));
    }

    private static boolean sameValue(Object a, Object b) {
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size()) {
                return false;
            }
            for (int i = 0; i < x.size(); i++) {
                if (!sameValue(x.get(i), y.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof Number x && b instanceof Number y) {
            return new BigDecimal(x.toString()).compareTo(new BigDecimal(y.toString())) == 0;
        }
        return a != null && a.equals(b);
    }

    /** A namespace holding one chunk per generated metadata map, with its vectors, for oracle comparisons. */
    private record Corpus(Namespace namespace, Map<String, Chunk> chunks, Map<String, float[]> vectors) {}

    private Corpus filterCorpus(Namespace ns, int size, long seed) throws Exception {
        FilterCorpus metadata = new FilterCorpus(seed);
        TestVectors vectors = new TestVectors(seed, dimension());
        Map<String, Chunk> chunks = new LinkedHashMap<>();
        Map<String, float[]> vectorsById = new LinkedHashMap<>();
        List<EmbeddedChunk> batch = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            Chunk c = chunk(String.format("doc%04d", i), 0, "text of chunk " + i, metadata.nextMetadata());
            float[] v = vectors.next();
            chunks.put(c.id(), c);
            vectorsById.put(c.id(), v);
            batch.add(embedded(c, v));
        }
        store().upsert(ns, batch);
        return new Corpus(ns, chunks, vectorsById);
    }

    // ---------------------------------------------------------------------------------------------- isolation

    @Test
    void namespacesWithEqualChunkIdsNeverSeeEachOther() throws Exception {
        Namespace a = tenant("a");
        Namespace b = tenant("b");
        Namespace aTeam = partition("a", "team");
        float[] v = new TestVectors(1, dimension()).next();
        for (Namespace ns : List.of(a, b, aTeam)) {
            store().upsert(ns, List.of(
                    embedded(chunk("doc", 0, "owner " + ns.key(), Map.of("owner", ns.key())), v),
                    embedded(chunk("doc", 1, "owner " + ns.key(), Map.of("owner", ns.key())), v)));
        }
        for (Namespace ns : List.of(a, b, aTeam)) {
            List<ScoredChunk> hits = vectorSearch(ns, v, 10, MetadataFilter.all());
            assertEquals(List.of("doc#0", "doc#1"), ids(hits), "hits in " + ns);
            hits.forEach(h -> assertEquals("owner " + ns.key(), h.chunk().text(), "a hit of " + ns + " came from another namespace"));
            assertEquals(2, store().count(ns, MetadataFilter.all()));
            assertEquals(2, store().documentChunks(ns, "doc").size());
            store().documentChunks(ns, "doc").forEach(c -> assertEquals(ns.key(), c.metadata().get("owner")));
            store().list(ns, null, 10).chunks().forEach(c -> assertEquals(ns.key(), c.metadata().get("owner")));
        }
        assertEquals(0, store().count(partition("a", "other"), MetadataFilter.all()), "an unused partition is empty");
        assertEquals(2, store().count(Namespace.of(a.tenant(), Namespace.DEFAULT_PARTITION), MetadataFilter.all()),
                "the named default partition is the tenant namespace");

        assertEquals(1, store().deleteChunks(b, List.of("doc#0")));
        assertEquals(2, store().deleteDocument(aTeam, "doc"));
        assertEquals(2, store().count(a, MetadataFilter.all()), "deletes in other namespaces must not touch this one");
        assertEquals(0, store().deleteWhere(b, MetadataFilter.eq("owner", a.key())), "a filter cannot reach another namespace");
        store().deleteNamespace(a);
        assertEquals(0, store().count(a, MetadataFilter.all()));
        assertEquals(1, store().count(b, MetadataFilter.all()));
        assertEquals(0, store().count(aTeam, MetadataFilter.all()));
        assertTrue(vectorSearch(a, v, 5, MetadataFilter.all()).isEmpty());
    }

    @Test
    void deletingTheTenantNamespaceKeepsItsPartitions() throws Exception {
        Namespace a = tenant("a");
        Namespace aTeam = partition("a", "team");
        float[] v = new TestVectors(2, dimension()).next();
        store().upsert(a, List.of(embedded(chunk("d", 0, "x", Map.of()), v)));
        store().upsert(aTeam, List.of(embedded(chunk("d", 0, "x", Map.of()), v)));
        store().deleteNamespace(a);
        assertEquals(0, store().count(a, MetadataFilter.all()));
        assertEquals(1, store().count(aTeam, MetadataFilter.all()), "a partition is a namespace of its own");
    }

    @Test
    void anUnknownNamespaceIsEmpty() throws Exception {
        Namespace ns = tenant("never-written");
        assertTrue(vectorSearch(ns, new TestVectors(3, dimension()).next(), 5, MetadataFilter.all()).isEmpty());
        assertEquals(0, store().count(ns, MetadataFilter.all()));
        assertEquals(new ChunkPage(List.of(), null), store().list(ns, null, 10));
        assertTrue(store().documentChunks(ns, "d").isEmpty());
        assertEquals(0, store().deleteDocument(ns, "d"));
        store().deleteNamespace(ns);
    }

    @Test
    void storedVectorsAreTheUpsertedOnesOfTheNamespaceOrNone() throws Exception {
        Namespace ns = tenant("vectors");
        Namespace other = tenant("vectors-other");
        TestVectors vectors = new TestVectors(41, dimension());
        float[] first = vectors.next();
        float[] second = vectors.next();
        store().upsert(ns, List.of(embedded(chunk("d", 0, "first", Map.of()), first), embedded(chunk("d", 1, "second", Map.of()), second)));
        store().upsert(other, List.of(embedded(chunk("d", 0, "elsewhere", Map.of()), vectors.next())));
        Optional<Map<String, float[]>> stored = store().storedVectors(ns, List.of("d#0", "d#1", "unknown"));
        if (stored.isEmpty()) {
            return; // the store cannot return its vectors (SPI default): a relocation embeds again
        }
        assertEquals(Set.of("d#0", "d#1"), stored.get().keySet(), "exactly the namespace's known chunks");
        assertArrayEquals(first, stored.get().get("d#0"), 1e-6f);
        assertArrayEquals(second, stored.get().get("d#1"), 1e-6f);
        assertTrue(store().storedVectors(tenant("vectors-none"), List.of("d#0")).orElseThrow().isEmpty(), "another namespace holds none of them");
    }

    // ---------------------------------------------------------------------------------------------- upsert

    @Test
    void upsertIsIdempotent() throws Exception {
        Namespace ns = tenant("idem");
        TestVectors vectors = new TestVectors(4, dimension());
        List<EmbeddedChunk> batch = IntStream.range(0, 5)
                .mapToObj(i -> embedded(chunk("d", i, "text " + i, Map.of("i", i)), vectors.next())).toList();
        store().upsert(ns, batch);
        float[] query = vectors.next();
        List<ScoredChunk> first = vectorSearch(ns, query, 5, MetadataFilter.all());
        store().upsert(ns, batch);
        assertEquals(5, store().count(ns, MetadataFilter.all()));
        List<ScoredChunk> second = vectorSearch(ns, query, 5, MetadataFilter.all());
        assertEquals(ids(first), ids(second));
        for (int i = 0; i < first.size(); i++) {
            assertEquals(first.get(i).score(), second.get(i).score(), SCORE_TOLERANCE);
        }
    }

    @Test
    void theLastWriteWins() throws Exception {
        Namespace ns = tenant("lww");
        TestVectors vectors = new TestVectors(5, dimension());
        float[] oldVector = vectors.next();
        float[] newVector = vectors.next();
        store().upsert(ns, List.of(embedded(chunk("d", 0, "old text", Map.of("state", "old", "only-old", 1)), oldVector)));
        Chunk replacement = new Chunk("d#0", "d", 0, "new text", List.of("H1", "H2"), Map.of("state", "new"));
        store().upsert(ns, List.of(embedded(replacement, newVector)));

        assertEquals(1, store().count(ns, MetadataFilter.all()));
        assertEquals(0, store().count(ns, MetadataFilter.eq("state", "old")));
        assertEquals(0, store().count(ns, MetadataFilter.exists("only-old")), "metadata of the old version must be gone");
        List<Chunk> chunks = store().documentChunks(ns, "d");
        assertEquals(1, chunks.size());
        assertEquals("new text", chunks.get(0).text());
        assertEquals(List.of("H1", "H2"), chunks.get(0).headingPath());
        List<ScoredChunk> hits = vectorSearch(ns, newVector, 1, MetadataFilter.all());
        assertEquals(defaultMetric().score(newVector, newVector), hits.get(0).score(), SCORE_TOLERANCE,
                "the search must use the new vector");
    }

    @Test
    void duplicateIdsInOneCallKeepTheLast() throws Exception {
        Namespace ns = tenant("dup");
        TestVectors vectors = new TestVectors(6, dimension());
        store().upsert(ns, List.of(
                embedded(chunk("d", 0, "first", Map.of("n", 1)), vectors.next()),
                embedded(chunk("d", 1, "other", Map.of("n", 9)), vectors.next()),
                embedded(chunk("d", 0, "second", Map.of("n", 2)), vectors.next()),
                embedded(chunk("d", 0, "third", Map.of("n", 3)), vectors.next())));
        assertEquals(2, store().count(ns, MetadataFilter.all()));
        List<Chunk> chunks = store().documentChunks(ns, "d");
        assertEquals("third", chunks.get(0).text());
        assertSameMetadata(Map.of("n", 3), chunks.get(0).metadata(), "d#0");
    }

    @Test
    void chunksRoundTripTextHeadingsAndMetadata() throws Exception {
        Namespace ns = tenant("roundtrip");
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("s", "snow ☃ \"quoted\" 'single' \\ back");
        metadata.put("i", 7);
        metadata.put("l", 1L << 40);
        metadata.put("d", 2.5);
        metadata.put("b", false);
        metadata.put("list", List.of("x", "y", "x"));
        metadata.put("nums", List.of(1, 2.5));
        metadata.put("empty", List.of());
        metadata.put(ReservedKeys.EMBEDDER, "model.8.abc");
        Chunk original = new Chunk("d#3", "d", 3, "clean text", List.of("Policy", "Lodging"), metadata);
        store().upsert(ns, List.of(new EmbeddedChunk(original, "Policy > Lodging\nclean text", new TestVectors(7, dimension()).next())));
        Chunk back = store().documentChunks(ns, "d").get(0);
        assertEquals(original.id(), back.id());
        assertEquals(original.documentId(), back.documentId());
        assertEquals(3, back.index());
        assertEquals("clean text", back.text(), "the clean chunk text is returned, not the index text");
        assertEquals(original.headingPath(), back.headingPath());
        assertSameMetadata(metadata, back.metadata(), "round trip");
    }

    // ---------------------------------------------------------------------------------------------- delete

    @Test
    void deleteByChunkIdsCountsOnlyExistingChunks() throws Exception {
        Namespace ns = tenant("del");
        TestVectors vectors = new TestVectors(8, dimension());
        store().upsert(ns, IntStream.range(0, 4).mapToObj(i -> embedded(chunk("d", i, "t", Map.of()), vectors.next())).toList());
        assertEquals(2, store().deleteChunks(ns, List.of("d#0", "d#2", "missing", "d#0")));
        assertEquals(0, store().deleteChunks(ns, List.of()));
        assertEquals(List.of("d#1", "d#3"), store().documentChunks(ns, "d").stream().map(Chunk::id).toList());
        assertEquals(0, store().deleteChunks(ns, List.of("d#0")), "already deleted");
    }

    @Test
    void deleteByDocumentRemovesOnlyThatDocument() throws Exception {
        Namespace ns = tenant("deldoc");
        TestVectors vectors = new TestVectors(9, dimension());
        List<EmbeddedChunk> batch = new ArrayList<>();
        for (String doc : List.of("keep", "drop", "drop-2")) {
            for (int i = 0; i < 3; i++) {
                batch.add(embedded(chunk(doc, i, doc, Map.of()), vectors.next()));
            }
        }
        store().upsert(ns, batch);
        assertEquals(3, store().deleteDocument(ns, "drop"));
        assertEquals(0, store().deleteDocument(ns, "drop"));
        assertTrue(store().documentChunks(ns, "drop").isEmpty());
        assertEquals(3, store().documentChunks(ns, "drop-2").size(), "a document whose id extends the deleted one survives");
        assertEquals(6, store().count(ns, MetadataFilter.all()));
        vectorSearch(ns, vectors.next(), 10, MetadataFilter.all()).forEach(h -> assertFalse(h.chunk().documentId().equals("drop")));
    }

    @Test
    void deleteWhereAgreesWithTheFilterOracle() throws Exception {
        List<MetadataFilter> filters = List.of(
                MetadataFilter.eq("category", "alpha"),
                MetadataFilter.anyOf("tags", List.of("red", "blue")),
                MetadataFilter.anyOf("tags", List.of()),
                new MetadataFilter.Range("year", 2021, true, null, false),
                MetadataFilter.not(MetadataFilter.exists("price")));
        int round = 0;
        for (MetadataFilter filter : filters) {
            Corpus corpus = filterCorpus(tenant("delwhere" + round++), 60, 10 + round);
            long expected = corpus.chunks().values().stream().filter(c -> filter.matches(c.metadata())).count();
            assertEquals(expected, store().deleteWhere(corpus.namespace(), filter), "deleteWhere " + filter);
            assertEquals(0, store().count(corpus.namespace(), filter), "after deleteWhere " + filter);
            assertEquals(60 - expected, store().count(corpus.namespace(), MetadataFilter.all()), "survivors of deleteWhere " + filter);
        }
    }

    // ---------------------------------------------------------------------------------------------- filters

    @Test
    void countAgreesWithTheFilterOracleOnEveryRule() throws Exception {
        Corpus corpus = filterCorpus(tenant("filters"), 300, 42);
        List<MetadataFilter> filters = new FilterCorpus(43).filters(150);
        for (MetadataFilter filter : filters) {
            long expected = corpus.chunks().values().stream().filter(c -> filter.matches(c.metadata())).count();
            assertEquals(expected, store().count(corpus.namespace(), filter), "count of " + filter.toMap());
        }
    }

    @Test
    void filteredVectorSearchEqualsExactSearchOverTheOracleSubset() throws Exception {
        Corpus corpus = filterCorpus(tenant("filtered"), 300, 44);
        List<MetadataFilter> filters = new FilterCorpus(45).filters(40);
        TestVectors queries = new TestVectors(46, dimension());
        for (MetadataFilter filter : filters) {
            float[] query = queries.next();
            Map<String, float[]> allowed = new LinkedHashMap<>();
            corpus.chunks().forEach((id, c) -> {
                if (filter.matches(c.metadata())) {
                    allowed.put(id, corpus.vectors().get(id));
                }
            });
            List<TestVectors.Exact> exact = TestVectors.exactRanking(defaultMetric(), query, allowed);
            int k = 10;
            List<ScoredChunk> hits = vectorSearch(corpus.namespace(), query, k, filter);
            assertEquals(Math.min(k, exact.size()), hits.size(), "hit count for " + filter.toMap());
            assertAgreesWithExact(exact, hits, k, "filter " + filter.toMap());
        }
    }

    /** Each hit is allowed and scored right; every exact top-k id clearly above the k-th score is present. */
    private static void assertAgreesWithExact(List<TestVectors.Exact> exact, List<ScoredChunk> hits, int k, String what) {
        Map<String, Double> exactScore = exact.stream().collect(Collectors.toMap(TestVectors.Exact::id, TestVectors.Exact::score));
        for (ScoredChunk hit : hits) {
            Double expected = exactScore.get(hit.chunk().id());
            if (expected == null) {
                fail(what + ": hit " + hit.chunk().id() + " does not match the filter");
            }
            assertEquals(expected, hit.score(), SCORE_TOLERANCE, what + ": score of " + hit.chunk().id());
        }
        if (exact.size() > k) {
            double kth = exact.get(k - 1).score();
            Set<String> returned = new HashSet<>(ids(hits));
            for (TestVectors.Exact e : exact.subList(0, k)) {
                if (e.score() > kth + SCORE_TOLERANCE) {
                    assertTrue(returned.contains(e.id()), what + ": exact top-" + k + " hit " + e.id() + " missing; got " + ids(hits));
                }
            }
        }
    }

    @Test
    void anEmptyAnyOfMatchesNothingAndItsNegationMatchesAll() throws Exception {
        Namespace ns = tenant("emptyany");
        TestVectors vectors = new TestVectors(47, dimension());
        store().upsert(ns, List.of(
                embedded(chunk("d", 0, "t", Map.of("tags", List.of("a"))), vectors.next()),
                embedded(chunk("d", 1, "t", Map.of("tags", List.of())), vectors.next()),
                embedded(chunk("d", 2, "t", Map.of()), vectors.next())));
        MetadataFilter empty = MetadataFilter.anyOf("tags", List.of());
        assertEquals(0, store().count(ns, empty));
        assertTrue(vectorSearch(ns, vectors.next(), 10, empty).isEmpty());
        assertEquals(3, store().count(ns, MetadataFilter.not(empty)));
        assertEquals(0, store().deleteWhere(ns, empty));
        assertEquals(3, store().count(ns, MetadataFilter.all()));
    }

    @Test
    void multiValuedFieldsMatchWhenAnyElementMatches() throws Exception {
        Namespace ns = tenant("multi");
        TestVectors vectors = new TestVectors(48, dimension());
        store().upsert(ns, List.of(
                embedded(chunk("d", 0, "t", Map.of("audience", List.of("public", "group:eng"), "n", List.of(1, 50))), vectors.next()),
                embedded(chunk("d", 1, "t", Map.of("audience", "group:eng", "n", 20)), vectors.next()),
                embedded(chunk("d", 2, "t", Map.of("audience", List.of("user:bob"))), vectors.next())));
        assertEquals(Set.of("d#0", "d#1"), idsMatching(ns, MetadataFilter.eq("audience", "group:eng")));
        assertEquals(Set.of("d#0", "d#2"), idsMatching(ns, MetadataFilter.anyOf("audience", List.of("public", "user:bob"))));
        assertEquals(Set.of("d#0"), idsMatching(ns, new MetadataFilter.Range("n", 40, true, null, false)));
        assertEquals(Set.of("d#0", "d#1"), idsMatching(ns, new MetadataFilter.Range("n", 10, true, 60, true)));
        assertEquals(Set.of("d#2"), idsMatching(ns, MetadataFilter.not(MetadataFilter.eq("audience", "group:eng"))));
    }

    @Test
    void theKeysOfAFilterAndTogether() throws Exception {
        Namespace ns = tenant("and");
        TestVectors vectors = new TestVectors(49, dimension());
        store().upsert(ns, List.of(
                embedded(chunk("d", 0, "t", Map.of("a", "x", "b", "y")), vectors.next()),
                embedded(chunk("d", 1, "t", Map.of("a", "x", "b", "z")), vectors.next()),
                embedded(chunk("d", 2, "t", Map.of("a", "w", "b", "y")), vectors.next())));
        assertEquals(Set.of("d#0"), idsMatching(ns, MetadataFilter.fromMap(Map.of("a", "x", "b", "y"))));
        assertEquals(Set.of("d#0", "d#1"), idsMatching(ns, MetadataFilter.fromMap(Map.of("a", "x", "b", List.of("y", "z")))));
        assertEquals(Set.of(), idsMatching(ns, MetadataFilter.fromMap(Map.of("a", "x", "b", List.of()))));
    }

    @Test
    void numbersCompareByValueAndNeverEqualStrings() throws Exception {
        Namespace ns = tenant("numbers");
        TestVectors vectors = new TestVectors(50, dimension());
        store().upsert(ns, List.of(
                embedded(chunk("d", 0, "t", Map.of("v", 1)), vectors.next()),
                embedded(chunk("d", 1, "t", Map.of("v", 1.0)), vectors.next()),
                embedded(chunk("d", 2, "t", Map.of("v", "1")), vectors.next()),
                embedded(chunk("d", 3, "t", Map.of("v", 1.5)), vectors.next()),
                embedded(chunk("d", 4, "t", Map.of("v", -3L)), vectors.next()),
                embedded(chunk("d", 5, "t", Map.of("v", true)), vectors.next())));
        assertEquals(Set.of("d#0", "d#1"), idsMatching(ns, MetadataFilter.eq("v", 1L)));
        assertEquals(Set.of("d#0", "d#1"), idsMatching(ns, MetadataFilter.eq("v", 1.0)));
        assertEquals(Set.of("d#2"), idsMatching(ns, MetadataFilter.eq("v", "1")));
        assertEquals(Set.of("d#5"), idsMatching(ns, MetadataFilter.eq("v", true)));
        assertEquals(Set.of("d#0", "d#1", "d#3"), idsMatching(ns, new MetadataFilter.Range("v", 1, true, 1.5, true)));
        assertEquals(Set.of("d#3"), idsMatching(ns, new MetadataFilter.Range("v", 1, false, 2, false)));
        assertEquals(Set.of("d#4"), idsMatching(ns, new MetadataFilter.Range("v", null, false, 0, false)));
        assertEquals(Set.of("d#2"), idsMatching(ns, new MetadataFilter.Range("v", "0", true, "2", true)),
                "a string range compares only strings");
    }

    @Test
    void isoDateStringsRangeLexicographically() throws Exception {
        Namespace ns = tenant("dates");
        TestVectors vectors = new TestVectors(51, dimension());
        List<String> dates = List.of("2023-12-31", "2024-01-01", "2024-01-01T08:00:00Z", "2024-06-15", "2025-01-01");
        List<EmbeddedChunk> batch = new ArrayList<>();
        for (int i = 0; i < dates.size(); i++) {
            batch.add(embedded(chunk("d", i, "t", Map.of("at", dates.get(i))), vectors.next()));
        }
        store().upsert(ns, batch);
        assertEquals(Set.of("d#1", "d#2", "d#3"), idsMatching(ns, new MetadataFilter.Range("at", "2024-01-01", true, "2024-12-31", true)));
        assertEquals(Set.of("d#2", "d#3", "d#4"), idsMatching(ns, new MetadataFilter.Range("at", "2024-01-01", false, null, false)));
        assertEquals(Set.of("d#0"), idsMatching(ns, new MetadataFilter.Range("at", null, false, "2024-01-01", false)));
    }

    @Test
    void existsAndNotTreatMissingFieldsAsTheOracleDoes() throws Exception {
        Namespace ns = tenant("exists");
        TestVectors vectors = new TestVectors(52, dimension());
        store().upsert(ns, List.of(
                embedded(chunk("d", 0, "t", Map.of("k", "v")), vectors.next()),
                embedded(chunk("d", 1, "t", Map.of("k", "other")), vectors.next()),
                embedded(chunk("d", 2, "t", Map.of("j", "v")), vectors.next())));
        assertEquals(Set.of("d#0", "d#1"), idsMatching(ns, MetadataFilter.exists("k")));
        assertEquals(Set.of("d#2"), idsMatching(ns, MetadataFilter.not(MetadataFilter.exists("k"))));
        assertEquals(Set.of("d#1", "d#2"), idsMatching(ns, MetadataFilter.not(MetadataFilter.eq("k", "v"))), "not matches a missing field");
        assertEquals(Set.of("d#0"), idsMatching(ns, MetadataFilter.not(MetadataFilter.not(MetadataFilter.eq("k", "v")))));
    }

    @Test
    void hostileFilterKeysAndValuesAreJustData() throws Exception {
        Namespace ns = tenant("hostile");
        TestVectors vectors = new TestVectors(53, dimension());
        String hostile = "x' OR 1=1 -- \" } ) * ? \\ AND _tenant:*";
        store().upsert(ns, List.of(
                embedded(chunk("d", 0, "t", Map.of("k", hostile)), vectors.next()),
                embedded(chunk("d", 1, "t", Map.of("k", "x")), vectors.next())));
        assertEquals(Set.of("d#0"), idsMatching(ns, MetadataFilter.eq("k", hostile)));
        assertEquals(Set.of(), idsMatching(ns, MetadataFilter.eq("k", "*")));
        assertEquals(Set.of(), idsMatching(ns, MetadataFilter.eq("k.x-y_z", hostile)));
    }

    private Set<String> idsMatching(Namespace ns, MetadataFilter filter) throws Exception {
        long count = store().count(ns, filter);
        Set<String> ids = new HashSet<>(ids(vectorSearch(ns, new TestVectors(99, dimension()).next(), 100, filter)));
        assertEquals(count, ids.size(), "count and search disagree for " + filter.toMap());
        return ids;
    }

    // ---------------------------------------------------------------------------------------------- scores

    @Test
    void scoresFollowTheVectorSimilarityContractForEveryMetric() throws Exception {
        for (VectorSimilarity metric : supportedMetrics()) {
            VectorStore store = open(metric);
            Namespace ns = tenant("metric-" + metric.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
            TestVectors vectors = new TestVectors(60 + metric.ordinal(), dimension());
            Map<String, float[]> stored = new LinkedHashMap<>();
            List<EmbeddedChunk> batch = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                float[] v = vectors.next();
                if (metric != VectorSimilarity.COSINE) {
                    for (int j = 0; j < v.length; j++) {
                        v[j] *= 1 + (i % 3); // unnormalised vectors of different lengths
                    }
                }
                Chunk c = chunk(String.format("m%02d", i), 0, "t", Map.of());
                stored.put(c.id(), v);
                batch.add(embedded(c, v));
            }
            store.upsert(ns, batch);
            for (int q = 0; q < 5; q++) {
                float[] query = vectors.next();
                List<ScoredChunk> hits = store.search(ns, SearchRequest.vector(query, 10, MetadataFilter.all(), null, null));
                assertScoreContract(hits);
                assertEquals(10, hits.size());
                assertAgreesWithExact(TestVectors.exactRanking(metric, query, stored), hits, 10, metric.name());
            }
        }
    }

    @Test
    void equalScoresAreOrderedByChunkId() throws Exception {
        Namespace ns = tenant("ties");
        float[] v = new TestVectors(70, dimension()).next();
        List<String> ids = List.of("tie-c", "tie-a", "tie-e", "tie-b", "tie-d");
        store().upsert(ns, ids.stream().map(id -> embedded(new Chunk(id, "doc-" + id, 0, "t", List.of(), Map.of()), v)).toList());
        List<ScoredChunk> hits = vectorSearch(ns, v, 3, MetadataFilter.all());
        assertEquals(List.of("tie-a", "tie-b", "tie-c"), ids(hits), "ties broken by id, also at the top-K cut");
    }

    @Test
    void minScoreIsAppliedBeforeTheTopKCut() throws Exception {
        Namespace ns = tenant("minscore");
        TestVectors vectors = new TestVectors(71, dimension());
        Map<String, float[]> stored = new LinkedHashMap<>();
        List<EmbeddedChunk> batch = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            Chunk c = chunk(String.format("s%02d", i), 0, "t", Map.of("even", i % 2 == 0));
            float[] v = vectors.next();
            stored.put(c.id(), v);
            batch.add(embedded(c, v));
        }
        store().upsert(ns, batch);
        float[] query = vectors.next();
        List<TestVectors.Exact> exact = TestVectors.exactRanking(defaultMetric(), query, stored);
        double floor = (exact.get(3).score() + exact.get(4).score()) / 2; // exactly four chunks score above it
        List<ScoredChunk> hits = store().search(ns, SearchRequest.vector(query, 20, MetadataFilter.all(), floor, null));
        assertScoreContract(hits);
        assertEquals(exact.subList(0, 4).stream().map(TestVectors.Exact::id).toList(), ids(hits),
                "a floor returns fewer than topK hits, never hits below it");
        hits.forEach(h -> assertTrue(h.score() >= floor));

        double aboveAll = exact.get(0).score() + 0.01;
        assertTrue(store().search(ns, SearchRequest.vector(query, 20, MetadataFilter.all(), aboveAll, null)).isEmpty(),
                "a floor above every score returns nothing");

        List<ScoredChunk> filtered = store().search(ns, SearchRequest.vector(query, 20, MetadataFilter.eq("even", true), floor, null));
        Set<String> expected = exact.subList(0, 4).stream().map(TestVectors.Exact::id)
                .filter(id -> (Integer.parseInt(id.substring(1, 3)) % 2) == 0).collect(Collectors.toSet());
        assertEquals(expected, new HashSet<>(ids(filtered)), "floor and filter combine");
    }

    @Test
    void aQueryVectorOfTheWrongWidthIsRefused() throws Exception {
        Namespace ns = tenant("width");
        store().upsert(ns, List.of(embedded(chunk("d", 0, "t", Map.of()), new TestVectors(72, dimension()).next())));
        float[] wrong = new TestVectors(73, dimension() + 1).next();
        assertThrows(IllegalArgumentException.class, () -> store().search(ns, SearchRequest.vector(wrong, 5, MetadataFilter.all(), null, null)));
    }

    @Test
    void embeddingsAreReturnedOnlyWhenAskedAndSupported() throws Exception {
        Namespace ns = tenant("emb");
        float[] v = new TestVectors(74, dimension()).next();
        store().upsert(ns, List.of(embedded(chunk("d", 0, "token", Map.of()), v)));
        SearchRequest plain = SearchRequest.vector(v, 1, MetadataFilter.all(), null, null);
        assertNull(store().search(ns, plain).get(0).embedding(), "no embedding unless asked");
        float[] returned = store().search(ns, plain.withEmbeddings()).get(0).embedding();
        boolean returnsEmbeddings = store().capabilities().contains(StoreCapability.RETURNS_EMBEDDINGS);
        if (returnsEmbeddings) {
            assertTrue(Arrays.equals(v, returned), "the stored vector, exactly: " + Arrays.toString(returned));
        } else {
            assertNull(returned);
        }
        if (store().capabilities().contains(StoreCapability.KEYWORD_SEARCH)) {
            SearchRequest keyword = SearchRequest.keyword("token", 1, MetadataFilter.all(), null, null);
            assertNull(store().search(ns, keyword).get(0).embedding(), "no embedding unless asked");
            float[] fromKeyword = store().search(ns, keyword.withEmbeddings()).get(0).embedding();
            if (returnsEmbeddings) {
                assertTrue(Arrays.equals(v, fromKeyword), "keyword hits carry their stored vector too: " + Arrays.toString(fromKeyword));
            } else {
                assertNull(fromKeyword);
            }
        }
    }

    // ---------------------------------------------------------------------------------------------- fingerprints

    @Test
    void anEmbedderIdRestrictsSearchToChunksStampedWithIt() throws Exception {
        Namespace ns = tenant("fingerprint");
        TestVectors vectors = new TestVectors(80, dimension());
        float[] query = vectors.next();
        store().upsert(ns, List.of(
                embedded(chunk("d", 0, "apple one", Map.of(ReservedKeys.EMBEDDER, "model-a.8.0001")), vectors.next()),
                embedded(chunk("d", 1, "apple two", Map.of(ReservedKeys.EMBEDDER, "model-b.8.0002")), vectors.next()),
                embedded(chunk("d", 2, "apple three", Map.of()), vectors.next()),
                embedded(chunk("d", 3, "apple four", Map.of(ReservedKeys.EMBEDDER, "model-a.8.0001")), query)));
        List<ScoredChunk> a = store().search(ns, SearchRequest.vector(query, 10, MetadataFilter.all(), null, "model-a.8.0001"));
        assertEquals(List.of("d#3", "d#0"), ids(a));
        assertEquals(List.of("d#1"), ids(store().search(ns, SearchRequest.vector(query, 10, MetadataFilter.all(), null, "model-b.8.0002"))));
        assertTrue(store().search(ns, SearchRequest.vector(query, 10, MetadataFilter.all(), null, "unknown.8.ffff")).isEmpty());
        assertEquals(4, store().search(ns, SearchRequest.vector(query, 10, MetadataFilter.all(), null, null)).size());
        if (store().capabilities().contains(StoreCapability.KEYWORD_SEARCH)) {
            List<ScoredChunk> keyword = store().search(ns, SearchRequest.keyword("apple", 10, MetadataFilter.all(), null, "model-b.8.0002"));
            assertEquals(List.of("d#1"), ids(keyword));
        }
    }

    // ---------------------------------------------------------------------------------------------- reading

    @Test
    void documentChunksAreOrderedByIndex() throws Exception {
        Namespace ns = tenant("docchunks");
        TestVectors vectors = new TestVectors(90, dimension());
        List<EmbeddedChunk> batch = new ArrayList<>();
        for (int i : new int[] {11, 2, 0, 10, 1}) {
            batch.add(embedded(chunk("doc", i, "chunk " + i, Map.of()), vectors.next()));
        }
        batch.add(embedded(chunk("doc2", 0, "other", Map.of()), vectors.next()));
        store().upsert(ns, batch);
        assertEquals(List.of(0, 1, 2, 10, 11), store().documentChunks(ns, "doc").stream().map(Chunk::index).toList());
        assertEquals("chunk 10", store().documentChunks(ns, "doc").get(3).text());
        assertTrue(store().documentChunks(ns, "do").isEmpty(), "document ids match exactly, not by prefix");
    }

    @Test
    void listPagesThroughTheNamespaceInIdOrder() throws Exception {
        Namespace ns = tenant("list");
        TestVectors vectors = new TestVectors(91, dimension());
        List<String> expected = new ArrayList<>();
        List<EmbeddedChunk> batch = new ArrayList<>();
        for (int i = 29; i >= 0; i--) {
            Chunk c = chunk(String.format("p%02d", i), 0, "t", Map.of());
            expected.add(c.id());
            batch.add(embedded(c, vectors.next()));
        }
        expected.sort(null);
        store().upsert(ns, batch);
        store().upsert(tenant("list-other"), batch.subList(0, 5));
        List<String> seen = new ArrayList<>();
        String after = null;
        int pages = 0;
        do {
            ChunkPage page = store().list(ns, after, 7);
            assertTrue(page.chunks().size() <= 7);
            page.chunks().forEach(c -> seen.add(c.id()));
            after = page.nextAfterId();
            if (after != null) {
                assertEquals(page.chunks().get(page.chunks().size() - 1).id(), after);
            }
            assertTrue(++pages <= 5, "paging does not terminate");
        } while (after != null);
        assertEquals(expected, seen);
        assertEquals(List.of("p10#0", "p11#0"), store().list(ns, "p09#0", 2).chunks().stream().map(Chunk::id).toList());
        assertEquals(List.of("p10#0"), store().list(ns, "p09#5", 1).chunks().stream().map(Chunk::id).toList(),
                "afterId need not exist");
        assertEquals(new ChunkPage(List.of(), null), store().list(ns, "p29#0", 10));
    }

    @Test
    void countHonoursNamespaceAndFilter() throws Exception {
        Namespace ns = tenant("count");
        TestVectors vectors = new TestVectors(92, dimension());
        store().upsert(ns, IntStream.range(0, 12).mapToObj(i -> embedded(chunk("d", i, "t", Map.of("mod", i % 3)), vectors.next())).toList());
        assertEquals(12, store().count(ns, MetadataFilter.all()));
        assertEquals(4, store().count(ns, MetadataFilter.eq("mod", 0)));
        assertEquals(8, store().count(ns, MetadataFilter.not(MetadataFilter.eq("mod", 0))));
        assertEquals(0, store().count(tenant("count-other"), MetadataFilter.all()));
    }

    // ---------------------------------------------------------------------------------------------- concurrency

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void concurrentReadersAndWritersSeeConsistentResults() throws Exception {
        Namespace ns = tenant("concurrent");
        VectorStore store = store(); // one store shared by every thread
        int writers = 2;
        int batchesPerWriter = 20;
        int chunksPerBatch = 4;
        ExecutorService pool = Executors.newFixedThreadPool(writers + 2);
        AtomicBoolean writing = new AtomicBoolean(true);
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> writerTasks = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                writerTasks.add(pool.submit(() -> {
                    TestVectors vectors = new TestVectors(100 + writer, dimension());
                    start.await();
                    for (int b = 0; b < batchesPerWriter; b++) {
                        String doc = "w" + writer + "-b" + b;
                        List<EmbeddedChunk> batch = new ArrayList<>();
                        for (int i = 0; i < chunksPerBatch; i++) {
                            batch.add(embedded(chunk(doc, i, doc, Map.of("writer", writer)), vectors.next()));
                        }
                        store.upsert(ns, batch);
                        if (b % 10 == 9) {
                            store.deleteDocument(ns, "w" + writer + "-b" + (b - 5)); // deletes race with reads too
                        }
                    }
                    return null;
                }));
            }
            for (int r = 0; r < 2; r++) {
                int reader = r;
                pool.submit(() -> {
                    TestVectors vectors = new TestVectors(200 + reader, dimension());
                    try {
                        start.await();
                        long lastCount = 0;
                        while (writing.get()) {
                            List<ScoredChunk> hits = store.search(ns,
                                    SearchRequest.vector(vectors.next(), 5, MetadataFilter.eq("writer", reader), null, null));
                            assertScoreContract(hits);
                            for (ScoredChunk hit : hits) {
                                assertEquals(reader, ((Number) hit.chunk().metadata().get("writer")).intValue());
                                assertEquals(hit.chunk().documentId(), hit.chunk().text());
                            }
                            long count = store.count(ns, MetadataFilter.all());
                            assertTrue(count % chunksPerBatch == 0, "a batch was seen half-written: count " + count);
                            lastCount = count;
                        }
                        assertTrue(lastCount >= 0);
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                    return null;
                });
            }
            start.countDown();
            for (Future<?> task : writerTasks) {
                task.get(100, TimeUnit.SECONDS);
            }
        } finally {
            writing.set(false);
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS), "readers did not stop");
        }
        if (!failures.isEmpty()) {
            AssertionError error = new AssertionError("a concurrent reader failed: " + failures.peek(), failures.peek());
            failures.forEach(error::addSuppressed);
            throw error;
        }
        long deletedPerWriter = batchesPerWriter / 10;
        assertEquals((long) writers * (batchesPerWriter - deletedPerWriter) * chunksPerBatch, store.count(ns, MetadataFilter.all()));
    }

    // ---------------------------------------------------------------------------------------------- keyword

    private void assumeKeywordSearch() throws Exception {
        assumeTrue(store().capabilities().contains(StoreCapability.KEYWORD_SEARCH), "the store does not declare KEYWORD_SEARCH");
    }

    private void upsertKeywordCorpus(Namespace ns) throws Exception {
        TestVectors vectors = new TestVectors(110, dimension());
        store().upsert(ns, List.of(
                embedded(chunk("k", 0, "The hotel lodging policy allows three nights.", Map.of("lang", "en")), vectors.next()),
                embedded(chunk("k", 1, "Expense reports are due monthly.", Map.of("lang", "en")), vectors.next()),
                embedded(chunk("k", 2, "Lodging costs above the limit need approval; lodging is booked centrally.", Map.of("lang", "pt")),
                        vectors.next()),
                new EmbeddedChunk(chunk("k", 3, "Travel by train is preferred.", Map.of("lang", "en")),
                        "Travel > Zeppelin\nTravel by train is preferred.", vectors.next())));
    }

    @Test
    void keywordSearchRanksMatchingChunksAndReturnsCleanText() throws Exception {
        assumeKeywordSearch();
        Namespace ns = tenant("kw");
        upsertKeywordCorpus(ns);
        List<ScoredChunk> hits = store().search(ns, SearchRequest.keyword("lodging", 10, MetadataFilter.all(), null, null));
        assertScoreContract(hits);
        assertEquals(List.of("k#2", "k#0"), ids(hits), "the chunk mentioning lodging twice ranks first");
        hits.forEach(h -> assertTrue(h.score() > 0));
        List<ScoredChunk> indexOnly = store().search(ns, SearchRequest.keyword("zeppelin", 10, MetadataFilter.all(), null, null));
        assertEquals(List.of("k#3"), ids(indexOnly), "the index text is searchable");
        assertEquals("Travel by train is preferred.", indexOnly.get(0).chunk().text(), "the clean chunk text is returned");
        assertTrue(store().search(ns, SearchRequest.keyword("submarine", 10, MetadataFilter.all(), null, null)).isEmpty());
    }

    @Test
    void keywordSearchHonoursFilterNamespaceAndMinScore() throws Exception {
        assumeKeywordSearch();
        Namespace ns = tenant("kwf");
        Namespace other = tenant("kwf-other");
        upsertKeywordCorpus(ns);
        upsertKeywordCorpus(other);
        assertEquals(List.of("k#0"), ids(store().search(ns, SearchRequest.keyword("lodging", 10, MetadataFilter.eq("lang", "en"), null, null))));
        store().deleteNamespace(other);
        List<ScoredChunk> all = store().search(ns, SearchRequest.keyword("lodging", 10, MetadataFilter.all(), null, null));
        assertEquals(2, all.size(), "another namespace's deletion changes nothing here");
        double between = (all.get(0).score() + all.get(1).score()) / 2;
        assertEquals(List.of("k#2"), ids(store().search(ns, SearchRequest.keyword("lodging", 10, MetadataFilter.all(), between, null))));
        assertEquals(List.of("k#2"), ids(store().search(ns, SearchRequest.keyword("lodging", 1, MetadataFilter.all(), null, null))));
        assertTrue(store().search(ns, SearchRequest.keyword("lodging", 10, MetadataFilter.all(), all.get(0).score() + 1, null)).isEmpty());
        assertTrue(store().search(ns, SearchRequest.keyword("lodging", 10, MetadataFilter.anyOf("lang", List.of()), null, null)).isEmpty());
    }

    @Test
    void keywordOnlyChunksAreFoundByKeywordButNotByVector() throws Exception {
        assumeKeywordSearch();
        assumeTrue(acceptsChunksWithoutEmbeddings(), "the store needs an embedding on every chunk");
        Namespace ns = tenant("kwonly");
        float[] v = new TestVectors(111, dimension()).next();
        store().upsert(ns, List.of(
                new EmbeddedChunk(chunk("d", 0, "quartz crystal", Map.of()), null),
                embedded(chunk("d", 1, "granite block", Map.of()), v)));
        assertEquals(List.of("d#0"), ids(store().search(ns, SearchRequest.keyword("quartz", 5, MetadataFilter.all(), null, null))));
        assertEquals(List.of("d#1"), ids(store().search(ns, SearchRequest.vector(v, 5, MetadataFilter.all(), null, null))));
        assertEquals(2, store().count(ns, MetadataFilter.all()));
    }
}
