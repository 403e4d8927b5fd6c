package io.corpora.cli.bench;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import io.corpora.engine.embed.ForwardingEmbedder;
import io.corpora.engine.retriever.FusionSpec;
import io.corpora.engine.retriever.HybridRetriever;
import io.corpora.engine.retriever.KeywordRetriever;
import io.corpora.engine.retriever.RetrievalResult;
import io.corpora.engine.retriever.Retriever;
import io.corpora.engine.retriever.VectorRetriever;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.Passage;
import io.corpora.spi.RetrieveOptions;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.store.VectorStore;
import io.corpora.tenancy.IsolationGuard;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.Function;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.FSDirectory;

/** The three things searched side by side with the same vectors and queries. */
final class Systems {

    /** Hits every search returns. */
    static final int TOP_K = 10;
    /**
     * The HNSW breadth Corpora's Lucene store searches a top 10 with: max(topK x numCandidatesFactor, minCandidates), both
     * set to these values on the bench's stores ({@link Fleet}), which are also the store's defaults.
     */
    static final int NUM_CANDIDATES_FACTOR = 4;
    static final int MIN_CANDIDATES = 100;
    static final int CORPORA_CANDIDATES = Math.max(TOP_K * NUM_CANDIDATES_FACTOR, MIN_CANDIDATES);

    private Systems() {}

    /** A top-10 search returning ids, best first. */
    interface Search extends AutoCloseable {
        List<String> top(int query, MetadataFilter filter);

        @Override
        default void close() {}
    }

    /**
     * Corpora's retrieval hot path without the model: the isolation guard (namespace binding, reserved-key and
     * active-version checks), the vector retriever, result shaping, and the passages rendered to JSON as the REST layer
     * does. The query vector is precomputed (or, with {@code embedder}, computed by the real model per query).
     */
    static Search corpora(VectorStore store, Namespace namespace, Embedder model, List<String> queryTexts, List<float[]> queryVectors,
                          boolean embed) {
        Embedder precomputed = queryVectors(model, byText(queryTexts, queryVectors), embed);
        return rendered(store, namespace, queryTexts, guard -> new VectorRetriever(guard, namespace, precomputed));
    }

    /**
     * Corpora's default retrieval, hybrid, composed by the server's own {@link HybridRetriever#overStore} (its query
     * vector precomputed, as a query-cache hit gives it; the vector leg on {@code legThreads}), fused by the shipped
     * default fusion; then shaped and rendered as above.
     */
    static Search corporaHybrid(VectorStore store, Namespace namespace, Embedder model, List<String> queryTexts, List<float[]> queryVectors,
                                Executor legThreads) {
        Embedder precomputed = queryVectors(model, byText(queryTexts, queryVectors), false);
        String embedderId = model.fingerprint().id();
        return rendered(store, namespace, queryTexts,
                guard -> HybridRetriever.overStore(FusionSpec.STANDARD, guard, namespace, precomputed, embedderId, legThreads));
    }

    /** Corpora's keyword retrieval alone (the hybrid's second leg), shaped and rendered as above. */
    static Search corporaKeyword(VectorStore store, Namespace namespace, Embedder model, List<String> queryTexts) {
        String embedderId = model.fingerprint().id();
        return rendered(store, namespace, queryTexts, guard -> new KeywordRetriever(guard, namespace, embedderId));
    }

    private static Map<String, float[]> byText(List<String> queryTexts, List<float[]> queryVectors) {
        Map<String, float[]> vectors = new java.util.HashMap<>();
        for (int i = 0; i < queryTexts.size(); i++) {
            vectors.put(queryTexts.get(i), queryVectors.get(i));
        }
        return vectors;
    }

    /** Each search through a new guard (one per request, as the server makes), its passages rendered to JSON. */
    private static Search rendered(VectorStore store, Namespace namespace, List<String> queryTexts, Function<IsolationGuard, Retriever> retriever) {
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        return (query, filter) -> {
            IsolationGuard guard = new IsolationGuard(store, namespace, IsolationGuard.DEFAULT_OVER_FETCH, ids -> versionOne(ids));
            RetrievalResult result = retriever.apply(guard).retrieve(queryTexts.get(query % queryTexts.size()), new RetrieveOptions(TOP_K, filter, null, null));
            List<Map<String, Object>> rendered = new ArrayList<>();
            for (Passage p : result.passages()) {
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("id", p.id());
                one.put("text", p.text());
                one.put("score", p.score());
                one.put("metadata", io.corpora.spi.Metadata.withoutReserved(p.metadata()));
                rendered.add(one);
            }
            try {
                json.writeValueAsBytes(Map.of("passages", rendered));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return result.ids();
        };
    }

    /**
     * The model for queries only: with {@code embed} it embeds each query, else it answers the given vector of each
     * query text (what a query-cache hit gives); it refuses to embed documents, which a bench never does through it.
     */
    static Embedder queryVectors(Embedder model, Map<String, float[]> vectors, boolean embed) {
        return new ForwardingEmbedder(model) {
            @Override
            public List<float[]> embedDocuments(List<String> texts) {
                throw new UnsupportedOperationException("the bench never embeds documents through this");
            }

            @Override
            public float[] embedQuery(String query) {
                return embed ? delegate.embedQuery(query) : vectors.get(query).clone();
            }
        };
    }

    /** Every document at version 1: the bench writes each once. */
    static Map<String, Integer> versionOne(java.util.Collection<String> documentIds) {
        Map<String, Integer> versions = new java.util.HashMap<>();
        documentIds.forEach(id -> versions.put(id, 1));
        return versions;
    }

    /**
     * Segments in a namespace's last commit: a kNN search walks one HNSW graph per segment. A namespace a server has just
     * written may have no commit yet (its writes are durable in the translog; the store commits in the background, within
     * {@code translog.flushInterval}): waits for the first one, up to {@link #FIRST_COMMIT_DEADLINE}.
     */
    static int segments(Path namespaceDirectory) throws IOException, InterruptedException {
        try (FSDirectory directory = FSDirectory.open(namespaceDirectory)) {
            long end = System.nanoTime() + FIRST_COMMIT_DEADLINE.toNanos();
            while (!DirectoryReader.indexExists(directory)) {
                if (System.nanoTime() > end) {
                    throw new IOException("no Lucene commit in " + namespaceDirectory + " within " + FIRST_COMMIT_DEADLINE.toSeconds() + " s");
                }
                Thread.sleep(100); // the store tells no one when it commits: polled
            }
            return SegmentInfos.readLatestCommit(directory).size();
        }
    }

    /** How long a namespace just written over HTTP may take to have its first Lucene commit. */
    static final Duration FIRST_COMMIT_DEADLINE = Duration.ofSeconds(60);

    /** How long a measured tenant's directory must hold only committed segments to count as settled. */
    static final Duration SETTLED_QUIET = Duration.ofSeconds(3);
    /**
     * The same for a namespace of several segments in a server: its Lucene store merges a namespace whose writes paused
     * for {@code merge.idleAfter} (60 s by default), so quiet must outlast that pause.
     */
    static final Duration IDLE_MERGE_QUIET = Duration.ofSeconds(70);
    static final Duration SETTLE_DEADLINE = Duration.ofMinutes(10);

    /** A namespace's segments before and after waiting for its merges ({@link #settle}). */
    record Settled(int before, int after, boolean settled, double seconds) {
        String describe(String opened) {
            return String.format(Locale.ROOT, "%d segments as written, %d after %s and %s (%.0f s)", before, after, opened,
                    settled ? "waiting for its merges to be committed" : "NOT settled within " + SETTLE_DEADLINE.toMinutes() + " min", seconds);
        }

        /** The bench's progress line for a measured tenant. */
        String progress(String bucket) {
            return String.format(Locale.ROOT, "%s tenant: %d segments as written, %d once its merges settled (%.0f s)%s", bucket, before,
                    after, seconds, settled ? "" : " - NOT settled, measuring anyway");
        }
    }

    /**
     * Waits (up to {@link #SETTLE_DEADLINE}) until the merges a namespace's ingest left running are committed, so a
     * measurement neither shares the CPU with them nor sees the searcher move to merged segments mid-cell. The caller
     * has opened the namespace (its first reader asks the merge policy).
     */
    static Settled settle(Path namespaceDirectory, int before, Duration quiet) throws IOException, InterruptedException {
        long start = System.nanoTime();
        boolean settled = awaitCommittedAndQuiet(namespaceDirectory, quiet, SETTLE_DEADLINE);
        return new Settled(before, segments(namespaceDirectory), settled, (System.nanoTime() - start) / 1e9);
    }

    /**
     * Waits until a namespace's directory holds no segment file its last commit does not name, for {@code quiet} in a
     * row: no merge is writing, and what merges finished is committed (the store commits a merge-only change in the
     * background) and its inputs deleted. False if that did not happen before {@code deadline}.
     */
    static boolean awaitCommittedAndQuiet(Path namespaceDirectory, Duration quiet, Duration deadline) throws IOException, InterruptedException {
        long end = System.nanoTime() + deadline.toNanos();
        long quietSince = -1;
        try (FSDirectory directory = FSDirectory.open(namespaceDirectory)) {
            while (System.nanoTime() < end) {
                if (onlyCommittedSegmentFiles(directory)) {
                    quietSince = quietSince < 0 ? System.nanoTime() : quietSince;
                    if (System.nanoTime() - quietSince >= quiet.toNanos()) {
                        return true;
                    }
                } else {
                    quietSince = -1;
                }
                Thread.sleep(100); // the store tells no one when its merges end: polled
            }
        }
        return false;
    }

    private static boolean onlyCommittedSegmentFiles(FSDirectory directory) throws IOException {
        if (!DirectoryReader.indexExists(directory)) {
            return false; // nothing committed yet
        }
        Set<String> committed = new HashSet<>(SegmentInfos.readLatestCommit(directory).files(true));
        for (String file : directory.listAll()) {
            // Segment files start with '_'; a commit being written is pending_segments_N. The store's translog and
            // Lucene's write.lock are neither.
            if ((file.startsWith("_") && !committed.contains(file)) || file.startsWith("pending_segments")) {
                return false;
            }
        }
        return true;
    }

    /**
     * The engine under Corpora's Lucene store, read directly: an {@link IndexSearcher} over the namespace's last commit,
     * a {@link KnnFloatVectorQuery} exploring {@code breadth} candidates (HNSW's beam: {@link #TOP_K} is the engine's
     * cheapest top 10, {@link #CORPORA_CANDIDATES} the search Corpora's store asks for), the best 10 kept, and their ids
     * and texts loaded (what any caller needs back).
     * The field names are the store's on-disk layout ({@code vec.<width>}, {@code _id}, {@code _text}).
     */
    static Search rawLucene(Path namespaceDirectory, List<float[]> queryVectors, int breadth) {
        try {
            FSDirectory directory = FSDirectory.open(namespaceDirectory);
            DirectoryReader reader = DirectoryReader.open(directory);
            IndexSearcher searcher = new IndexSearcher(reader);
            String field = "vec." + queryVectors.get(0).length;
            return new Search() {
                @Override
                public List<String> top(int query, MetadataFilter filter) {
                    try {
                        TopDocs top = searcher.search(new KnnFloatVectorQuery(field, queryVectors.get(query % queryVectors.size()), breadth), TOP_K);
                        StoredFields stored = searcher.storedFields();
                        List<String> ids = new ArrayList<>(top.scoreDocs.length);
                        for (ScoreDoc hit : top.scoreDocs) {
                            org.apache.lucene.document.Document doc = stored.document(hit.doc);
                            doc.get("_text");
                            ids.add(doc.get("_id"));
                        }
                        return ids;
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }

                @Override
                public void close() {
                    try {
                        reader.close();
                        directory.close();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            };
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + namespaceDirectory, e);
        }
    }

    /** LangChain4j's {@link InMemoryEmbeddingStore} holding the same chunks (exact search over all of them). */
    static Search langChain4j(List<String> ids, List<String> texts, List<float[]> vectors, List<float[]> queryVectors) {
        InMemoryEmbeddingStore<TextSegment> store = new InMemoryEmbeddingStore<>();
        List<Embedding> embeddings = new ArrayList<>(vectors.size());
        List<TextSegment> segments = new ArrayList<>(vectors.size());
        for (int i = 0; i < vectors.size(); i++) {
            embeddings.add(Embedding.from(vectors.get(i)));
            segments.add(TextSegment.from(texts.get(i), dev.langchain4j.data.document.Metadata.from("chunk", ids.get(i))));
        }
        store.addAll(embeddings, segments);
        return (query, filter) -> {
            EmbeddingSearchRequest request = EmbeddingSearchRequest.builder()
                    .queryEmbedding(Embedding.from(queryVectors.get(query % queryVectors.size()))).maxResults(TOP_K).build();
            return store.search(request).matches().stream().map(m -> m.embedded().metadata().getString("chunk")).toList();
        };
    }
}
