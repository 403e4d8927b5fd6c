package io.corpora.cli.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.corpora.engine.chunk.Chunkers;
import io.corpora.engine.chunk.ChunkingOptions;
import io.corpora.engine.embed.DiskEmbeddingCache;
import io.corpora.engine.embed.DocumentEmbeddingCache;
import io.corpora.engine.index.HeadingContextualizer;
import io.corpora.ingest.DocumentLoaders;
import io.corpora.ingest.IngestRequest;
import io.corpora.ingest.IngestionService;
import io.corpora.plugin.loader.PluginRegistry;
import io.corpora.runtime.TenantRuntimes;
import io.corpora.spi.Chunk;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.LoadRequest;
import io.corpora.spi.loader.LoadedDocument;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The measured tenants of a profile, built in a live server through its real APIs with the in-process fleet's
 * synthetic vectors. Each chunk's text is its in-process text cut to {@value #TEXT_CHARS} characters (so a record
 * stays one chunk under the server's 800-character window) plus a marker {@code [c<rank>x<chunk>]} that makes it
 * unique. Documents are JSON Lines of {@value #DEFAULT_CHUNKS_PER_DOCUMENT} such records (or as many as asked), one chunk
 * each: few large documents by default; many small ones put a tenant's control-plane rows, which every retrieval's
 * active-version lookup reads, at the scale its chunks are.
 *
 * <p>Before the server starts, {@link #prefill} runs the server's own loader, chunker and contextualizer on every
 * document to learn the exact texts an ingest embeds, and writes each one's synthetic vector into the server's
 * document-embedding cache under the tenant's key space. {@link #ingest} then creates the tenants through the admin
 * API and posts the documents through the data API: the server loads, chunks, stamps, writes and registers every
 * chunk as any ingest does, and takes the vectors from the cache instead of the model (checked by its cache metrics).
 */
final class HttpTenants {

    static final int TEXT_CHARS = 700;
    static final int DEFAULT_CHUNKS_PER_DOCUMENT = 100;
    static final String MEDIA_TYPE = "application/x-ndjson"; // what the data API makes of "format": "jsonl"
    private static final Pattern MARKER = Pattern.compile("\\[c\\d+x(\\d+)]");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A measured tenant in the server, beside the in-process tenant whose vectors it holds. */
    record Tenant(String id, Fleet.Tenant inProcess) {
        int size() {
            return inProcess.size();
        }
    }

    /** What building took: chunks posted, seconds, and the document cache's hits and misses meanwhile. */
    record Ingested(long chunks, double seconds, long cacheHits, long cacheMisses) {}

    private final BenchCorpus corpus;
    private final List<Tenant> tenants;
    private final int chunksPerDocument;

    HttpTenants(BenchCorpus corpus, List<Fleet.Tenant> measured, int chunksPerDocument) {
        if (chunksPerDocument < 1) {
            throw new IllegalArgumentException("a document holds at least one chunk, got " + chunksPerDocument);
        }
        this.corpus = corpus;
        this.chunksPerDocument = chunksPerDocument;
        this.tenants = measured.stream().map(t -> new Tenant("bench-" + t.bucket(), t)).toList();
    }

    List<Tenant> tenants() {
        return tenants;
    }

    String text(Fleet.Tenant tenant, int chunk) {
        String text = corpus.text(tenant.rank(), chunk);
        return (text.length() > TEXT_CHARS ? text.substring(0, TEXT_CHARS) : text) + " [c" + tenant.rank() + "x" + chunk + "]";
    }

    /** The chunk number a passage's text names, or -1. */
    static int chunkOf(String passageText) {
        Matcher m = MARKER.matcher(passageText);
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    int chunksPerDocument() {
        return chunksPerDocument;
    }

    /** Documents of a tenant: all full but its last. */
    int documents(Tenant tenant) {
        return (tenant.size() + chunksPerDocument - 1) / chunksPerDocument;
    }

    private static String documentId(int document) {
        return "d" + document;
    }

    /** Document {@code d} of a tenant as JSON Lines: one JSON string per chunk. */
    private byte[] document(Tenant tenant, int d) {
        StringBuilder lines = new StringBuilder();
        for (int j = d * chunksPerDocument; j < Math.min(tenant.size(), (d + 1) * chunksPerDocument); j++) {
            try {
                lines.append(JSON.writeValueAsString(text(tenant.inProcess(), j))).append('\n');
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return lines.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Writes every measured chunk's synthetic vector into the cache the server will use, keyed by the text the server's
     * ingest will embed (loaded, chunked and contextualized here by the same code); returns how many.
     */
    long prefill(Path cacheDirectory, Embedder model, PluginRegistry registry, Path work) throws IOException {
        DocumentLoader loader = new DocumentLoaders(registry, work.resolve("http-loaders")).find(MEDIA_TYPE, null)
                .orElseThrow(() -> new IllegalStateException("no loader reads " + MEDIA_TYPE + ": is loader-records among the plugins?"));
        ChunkingOptions chunking = TenantRuntimes.chunkingFor(model);
        HeadingContextualizer contextualizer = new HeadingContextualizer();
        long written = 0;
        try (DiskEmbeddingCache cache = DiskEmbeddingCache.open(cacheDirectory, model.fingerprint(), DiskEmbeddingCache.DEFAULT_MAX_BYTES)) {
            for (Tenant tenant : tenants) {
                DiskEmbeddingCache.Space space = DocumentEmbeddingCache.space(tenant.id(), Map.of());
                for (int d = 0; d < documents(tenant); d++) {
                    IngestRequest request = new IngestRequest(documentId(d), null, document(tenant, d), MEDIA_TYPE, "utf-8", null, Map.of());
                    LoadedDocument loaded = IngestionService.withCallerMetadata(loader.load(new LoadRequest(request.content(), request.mediaType(),
                            request.charset(), request.fileName())), request.metadata(), request.source());
                    List<Chunk> chunks = new Chunkers(chunking).chunk(request.documentId(), loaded);
                    int first = d * chunksPerDocument;
                    for (int i = 0; i < chunks.size(); i++) {
                        if (chunkOf(chunks.get(i).text()) != first + i) {
                            throw new IllegalStateException("document " + d + " of " + tenant.id() + ": chunk " + i + " is not record " + (first + i)
                                    + " whole (did the chunker split a record?): " + chunks.get(i).text());
                        }
                        cache.put(space, contextualizer.indexText(chunks.get(i)), tenant.inProcess().vectors().get(first + i));
                        written++;
                    }
                }
            }
        }
        return written;
    }

    /**
     * Creates the tenants and posts their documents ({@code writers} at a time), then checks the server stored every
     * chunk; returns what it took and what the document cache saw meanwhile (from the server's metrics).
     */
    Ingested ingest(BenchHttp http, ServerTokens tokens, int writers, PrintStream err) throws IOException, InterruptedException {
        for (Tenant tenant : tenants) {
            http.createTenant(tokens.admin(), tenant.id(), "Bench " + tenant.inProcess().bucket() + " tenant");
        }
        ServerMetrics before = ServerMetrics.read(http);
        long start = System.nanoTime();
        long chunks = 0;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            for (Tenant tenant : tenants) {
                String writer = tokens.writer(tenant.id());
                List<Future<?>> posted = new ArrayList<>();
                for (int d = 0; d < documents(tenant); d++) {
                    int document = d;
                    posted.add(pool.submit(() -> {
                        post(http, writer, tenant, document);
                        return null;
                    }));
                }
                for (Future<?> f : posted) {
                    try {
                        f.get();
                    } catch (java.util.concurrent.ExecutionException e) {
                        throw new IOException("ingest into " + tenant.id() + " failed: " + e.getCause().getMessage(), e.getCause());
                    }
                }
                chunks += tenant.size();
                err.printf("bench: http: %s tenant ingested (%d chunks), %.0f s%n", tenant.inProcess().bucket(), tenant.size(),
                        (System.nanoTime() - start) / 1e9);
            }
        } finally {
            pool.shutdownNow();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        ServerMetrics after = ServerMetrics.read(http);
        for (Tenant tenant : tenants) {
            requireStored(http, tokens, tenant);
        }
        return new Ingested(chunks, seconds, after.documentCacheHits() - before.documentCacheHits(),
                after.documentCacheMisses() - before.documentCacheMisses());
    }

    private void post(BenchHttp http, String writer, Tenant tenant, int d) throws IOException, InterruptedException {
        String body = JSON.writeValueAsString(Map.of("id", documentId(d), "format", "jsonl",
                "text", new String(document(tenant, d), StandardCharsets.UTF_8)));
        HttpResponse<String> stored = http.send(http.post("api/v1/tenants/" + tenant.id() + "/documents", writer, body));
        if (stored.statusCode() != 201 && stored.statusCode() != 200) {
            throw new IOException("document " + d + " of " + tenant.id() + ": HTTP " + stored.statusCode() + " " + stored.body());
        }
    }

    private static void requireStored(BenchHttp http, ServerTokens tokens, Tenant tenant) throws IOException, InterruptedException {
        HttpResponse<String> stats = http.send(http.get("api/v1/tenants/" + tenant.id() + "/stats", tokens.reader(tenant.id())));
        long chunks = stats.statusCode() == 200 ? JSON.readTree(stats.body()).path("chunks").asLong(-1) : -1;
        if (chunks != tenant.size()) {
            throw new IOException(tenant.id() + " holds " + chunks + " chunks after ingest, not " + tenant.size() + ": HTTP "
                    + stats.statusCode() + " " + stats.body());
        }
    }

    /** Tokens of the development key for the bench's tenants, valid for the whole run. */
    record ServerTokens(io.corpora.security.DevTokenMinter minter) {
        private static final Duration TTL = Duration.ofHours(12);

        String admin() {
            return minter.mint("bench", null, List.of("platform-admin"), TTL, Map.of());
        }

        String writer(String tenant) {
            return minter.mint("bench", tenant, List.of("writer"), TTL, Map.of());
        }

        String reader(String tenant) {
            return minter.mint("bench", tenant, List.of("reader"), TTL, Map.of());
        }
    }
}
