package io.corpora.cli.bench;

import io.corpora.cli.Command;
import io.corpora.cli.Options;
import io.corpora.cli.UsageException;
import io.corpora.cli.eval.BeirDataset;
import io.corpora.cli.eval.CachingEmbedder;
import io.corpora.plugin.loader.PluginManager;
import io.corpora.plugin.loader.PluginRegistry;
import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.embed.EmbedderProvider;
import io.corpora.tenancy.ReservedKeyStamper;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadFactory;
import java.util.stream.Stream;

/**
 * {@code corpora bench}: builds issue 19's deployment shape (Zipf-sized tenants) on the Lucene store from real
 * embeddings, then measures, in one run: ingest chunks/s against the raw embedder's; retrieve latency and throughput at
 * 1/4/16 clients for the smallest, the median and the largest tenant, through Corpora's hot path (with and without the
 * query embedding), the raw Lucene searcher and LangChain4j's in-memory store; recall@10 against exact search, filtered
 * too; int8 quantisation's recall and size; a cold tenant's first query; and a small tenant's latency while the largest
 * ingests. In process (the server's HTTP and JSON layers are not in these figures, except the passages' JSON rendering);
 * with {@code --http} the measured tenants again through a real server's retrieve route ({@link HttpBench}).
 */
public final class BenchCommand implements Command {

    static final Path DEFAULT_PLUGINS = Path.of("platform-cli", "target", "plugins");
    static final Path DEFAULT_DATASET = Path.of("..", "shared", "datasets", "scifact");
    static final Path DEFAULT_CACHE = Path.of(System.getProperty("user.home"), ".cache", "corpora", "embeddings");
    static final int[] CLIENTS = {1, 4, 16};
    static final String PG_URL_VARIABLE = "CORPORA_TEST_PG_URL";
    /**
     * The pgvector fleet's default cap: ~50,000 rows, written with live HNSW indexes at ~500 rows/s on two cores, so each
     * layout builds in under two minutes (the Lucene fleet's 1M rows would take hours).
     */
    static final int PG_MAX_TENANTS = 50;
    static final int PG_LARGEST = 11_000;
    static final int PG_PARTITIONS = 8;

    @Override
    public String name() {
        return "bench";
    }

    @Override
    public String summary() {
        return "benchmark the deployment shape of many Zipf-sized tenants side by side with the raw store and LangChain4j";
    }

    @Override
    public String usage() {
        return """
                usage: corpora bench [--quick | --profile quick|medium|full] [options]
                       corpora bench density --pid PID [options]   (tenant density of a running server; --help for its options)
                       corpora bench ingest-http --files DIR --tenant T [options]   (the whole ingest through a running server
                                            against the raw embedder on the same chunk texts; its options below)
                  --quick              the quick profile (200 tenants, ~29k chunks, 300 real passages; under 3 minutes)
                  --profile NAME       quick | medium (2,000 tenants, ~250k chunks) | full (10,000 tenants, ~1M chunks); default quick
                  --dataset DIR        a BEIR dataset whose passages and queries are embedded (default ../shared/datasets/scifact)
                  --out DIR            results folder (default bench-results/<timestamp>)
                  --cache DIR          embedding cache (default ~/.cache/corpora/embeddings)
                  --plugins DIR        plugin bundles (default platform-cli/target/plugins)
                  --store NAME         lucene (default) | pgvector | all: pgvector builds its own, smaller fleet in two layouts
                                       (one shared table; LIST-partitioned by tenant) and measures Corpora against raw SQL,
                                       and Corpora's hybrid retrieval (the default mode) beside its vector retrieval
                  --jdbc-url URL       the pgvector database (default: env CORPORA_TEST_PG_URL); tables bench_* made and dropped
                  --pg-tenants N       tenants of the pgvector fleet (default: the profile's, at most %d)
                  --pg-largest N       chunks of its largest tenant (default %d: just above the store's exact-search bound,
                                       so the largest tenant takes the HNSW path; every pgvector row is indexed as written)
                  --pg-partitions N    the N largest tenants get a partition of their own in the partitioned layout (default %d)
                  --http | --no-http   also retrieve over HTTP from a server the bench starts (default: on but with --quick): the
                                       smallest, median and largest tenant built in it through the admin and data APIs with the
                                       fleet's vectors (its document-embedding cache filled beforehand), then 1/4/16 clients in
                                       vector and hybrid mode, query vectors cached and embedded; needs the server built
                                       (mvn -DskipTests install)
                  --http-liberty DIR   the built Liberty runtime (default platform-server/target/liberty/wlp)
                  --http-war FILE      the server's WAR (default platform-server/target/corpora.war)
                  --http-port N        its HTTP port (default: a free one)
                  --http-heap SIZE     its -Xmx (default 2g)
                  --http-keep          keep its data and document cache under <out>/server (its logs are always kept)
                  --http-reuse DIR     with --only http: measure the tenants a --http-keep run left in DIR (its <out>/server) again,
                                       with this run's --http-war, ingesting nothing: two server builds on the same segments
                  --http-chunks-per-document N
                                       records (one chunk each) per document its tenants are ingested as (default %d: few
                                       large documents; e.g. 4 for many small ones, as SciFact's abstracts make 2-3 chunks)
                  --only ingest        measure ingest only (pipeline against the raw embedder); no fleet, no retrieval
                  --only http          measure the HTTP cells only: the profile's smallest, median and largest tenant built in
                                       the bench's server with the chunks the fleet would give them; the rest of the fleet is
                                       not written and nothing is measured in process (full profile: ~15 minutes instead of ~35)
                  --ingest-texts N     passages of the ingest measurement (default: the profile's, 16 / 256 / 512)
                  --ingest-writers L   concurrencies of the ingest measurement, e.g. 1,2,4 (default 1,2: writers of the pipeline
                                       = documents in flight, and as many threads calling the raw embedder)"""
                .formatted(PG_MAX_TENANTS, PG_LARGEST, PG_PARTITIONS, HttpTenants.DEFAULT_CHUNKS_PER_DOCUMENT) + "\n\n" + new HttpIngestCommand().usage();
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        if (!args.isEmpty() && args.get(0).equals("density")) {
            return new DensityCommand().run(args, out, err);
        }
        if (!args.isEmpty() && args.get(0).equals("ingest-http")) {
            return new HttpIngestCommand().run(args, out, err);
        }
        Options options = Options.parse(args, Set.of("profile", "dataset", "out", "cache", "plugins", "store", "jdbc-url", "pg-tenants",
                "pg-largest", "pg-partitions", "http-liberty", "http-war", "http-port", "http-heap", "http-chunks-per-document", "http-reuse", "only",
                "ingest-texts", "ingest-writers"),
                Set.of("quick", "http", "no-http", "http-keep"));
        Profile profile;
        try {
            profile = options.flag("quick") ? Profile.QUICK : Profile.named(options.string("profile", "quick"));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        String only = options.string("only").isPresent() ? options.choice("only", null, List.of("ingest", "http")) : "";
        boolean ingestOnly = only.equals("ingest");
        boolean httpOnly = only.equals("http");
        profile = profile.withIngestTexts(options.integer("ingest-texts", profile.ingestTexts(), 1, 100_000));
        List<Integer> ingestWriters = ingestWriters(options.string("ingest-writers", "1,2"));
        String stores = options.choice("store", "lucene", List.of("lucene", "pgvector", "all"));
        boolean lucene = !stores.equals("pgvector");
        if (options.string("http-reuse").isPresent() && !httpOnly) {
            throw new UsageException("--http-reuse measures a kept server's tenants alone: it needs --only http");
        }
        if (httpOnly && (!stores.equals("lucene") || !httpOn(options, profile))) {
            throw new UsageException("--only http measures the Lucene fleet's tenants over HTTP: it needs --store lucene and HTTP on"
                    + " (--http with --quick; not --no-http)");
        }
        PgVectorRun pgvector = stores.equals("lucene") || ingestOnly ? null : PgVectorRun.from(options, profile, System.getenv(PG_URL_VARIABLE));
        HttpBench.Settings http = ingestOnly ? null : httpSettings(options, profile, lucene,
                Path.of(System.getProperty("corpora.dev.jwt.private.key", "platform-server/dev-jwt/private.pem")));
        Path datasetDir = options.path("dataset", DEFAULT_DATASET);
        Path plugins = options.path("plugins", Path.of(System.getProperty("corpora.plugins.dir", DEFAULT_PLUGINS.toString())));
        if (!Files.isDirectory(plugins)) {
            throw new UsageException("plugins directory " + plugins.toAbsolutePath() + " does not exist (build, or pass --plugins DIR)");
        }
        if (!Files.isDirectory(datasetDir)) {
            throw new UsageException("dataset " + datasetDir.toAbsolutePath() + " does not exist (pass --dataset DIR)");
        }
        Path outDir = options.path("out", Path.of("bench-results", LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))));
        Files.createDirectories(outDir);
        BenchResults results = new BenchResults(profile);
        results.note("machine", Machine.describe());
        results.note("load at start", Machine.load());
        results.note("vectors", BenchCorpus.describe());
        long began = System.nanoTime();

        PluginRegistry registry = PluginManager.load(plugins);
        registry.problems().forEach(p -> err.println("plugin problem: " + p));
        Path work = Files.createTempDirectory("corpora-bench-");
        Embedder model = null;
        CachingEmbedder cached = null;
        try {
            model = registry.create(EmbedderProvider.class, "onnx", context(work, "embedder"), Map.of());
            BeirDataset dataset = BeirDataset.open(datasetDir, "test");
            cached = new CachingEmbedder(model, options.path("cache", DEFAULT_CACHE)); // closing it closes the model
            // The ingest texts are passages the vectors are not made of; a dataset smaller than both (SciFact's 5,183
            // documents for the medium profile's 5,000 + 256) gives the vectors fewer real passages, and says so.
            List<String> available = BenchCorpus.passages(dataset, profile.passages() + profile.ingestTexts());
            int real = Math.min(profile.passages(), available.size() - profile.ingestTexts());
            if (real < 1) {
                throw new UsageException("dataset " + datasetDir + " holds " + available.size() + " documents: too few for the "
                        + profile.ingestTexts() + " ingest texts of the " + profile.name() + " profile and at least one real passage");
            }
            if (real < profile.passages()) {
                results.note("real passages", real + " (the " + profile.name() + " profile asks " + profile.passages() + "; the dataset holds "
                        + available.size() + " documents, " + profile.ingestTexts() + " of them kept for the ingest measurement)");
            }
            IngestThroughput ingest = new IngestThroughput(model, registry, work, err);
            List<String> ingestTexts = available.subList(real, real + profile.ingestTexts());
            if (ingestOnly) {
                results.ingest(ingestTexts.size(), ingest.measure(ingestTexts, ingestWriters));
            } else {
                BenchCorpus corpus = BenchCorpus.embed(available.subList(0, real), dataset, profile, cached, err);
                err.printf("bench: %d passages, %d queries (cache: %d hits, %d misses)%n", corpus.texts.size(), corpus.queryTexts.size(),
                        cached.hits(), cached.misses());
                if (httpOnly) {
                    results.note("only", "the HTTP cells of the profile's smallest, median and largest tenant (--only http); the rest of"
                            + " the fleet was not written and nothing was measured in process");
                    new HttpBench(profile, corpus, model, registry, plugins, work, outDir, http, err)
                            .run(Fleet.measuredTenants(profile, corpus, model.fingerprint().id()), results);
                } else if (lucene) {
                    results.ingest(ingestTexts.size(), ingest.measure(ingestTexts, ingestWriters));
                    List<Fleet.Tenant> measured = new Fleet(profile, corpus, model, registry, work, err).run(results);
                    if (http != null) {
                        new HttpBench(profile, corpus, model, registry, plugins, work, outDir, http, err).run(measured, results);
                    }
                }
                if (pgvector != null) {
                    new PgVectorFleet(pgvector.shape(), pgvector.partitions(), pgvector.jdbcUrl(), corpus, model, registry, work, err)
                            .run(List.of(PgVectorFleet.Layout.values()), results);
                }
            }
        } finally {
            if (cached != null) {
                cached.close();
            } else if (model != null) {
                model.close();
            }
            deleteRecursively(work);
        }
        results.note("load at end", Machine.load());
        results.note("duration", String.format("%.0f s", (System.nanoTime() - began) / 1e9));
        results.write(outDir, out);
        err.println("bench: results in " + outDir.toAbsolutePath());
        return 0;
    }

    /** The HTTP part's settings, or null when it does not run (off by default in the quick profile, which must stay under 3 minutes). */
    static HttpBench.Settings httpSettings(Options options, Profile profile, boolean lucene, Path devKey) {
        if (options.flag("http") && options.flag("no-http")) {
            throw new UsageException("--http and --no-http contradict each other");
        }
        if (!httpOn(options, profile) || !lucene) {
            if (options.flag("http") && !lucene) {
                throw new UsageException("--http measures the Lucene fleet's tenants: it needs --store lucene or all");
            }
            return null;
        }
        String heap = options.string("http-heap", "2g");
        if (!heap.matches("\\d+[kmgKMG]?")) {
            throw new UsageException("--http-heap must be a JVM size such as 2g, got '" + heap + "'");
        }
        return new HttpBench.Settings(options.path("http-liberty", BenchServer.DEFAULT_LIBERTY), options.path("http-war", BenchServer.DEFAULT_WAR),
                options.integer("http-port", 0, 0, 65_535), heap, options.flag("http-keep"), devKey,
                options.integer("http-chunks-per-document", HttpTenants.DEFAULT_CHUNKS_PER_DOCUMENT, 1, HttpTenants.DEFAULT_CHUNKS_PER_DOCUMENT),
                options.string("http-reuse").map(Path::of).orElse(null));
    }

    /** Whether the HTTP cells run: asked for, or the profile is not the quick one and they were not turned off. */
    private static boolean httpOn(Options options, Profile profile) {
        return options.flag("http") || (!options.flag("no-http") && !profile.name().equals(Profile.QUICK.name()));
    }

    static List<Integer> ingestWriters(String list) {
        try {
            List<Integer> writers = java.util.Arrays.stream(list.split(",")).map(String::trim).map(Integer::parseInt).distinct().toList();
            if (writers.isEmpty() || writers.stream().anyMatch(w -> w < 1 || w > 64)) {
                throw new NumberFormatException();
            }
            return writers;
        } catch (NumberFormatException e) {
            throw new UsageException("--ingest-writers must be a comma-separated list of 1..64, got '" + list + "'");
        }
    }

    /** The pgvector part's options, checked before anything is built. */
    record PgVectorRun(String jdbcUrl, Profile shape, int partitions) {
        static PgVectorRun from(Options options, Profile profile, String urlFromEnvironment) {
            String url = options.string("jdbc-url").orElse(urlFromEnvironment);
            if (url == null || url.isBlank()) {
                throw new UsageException("--store pgvector needs --jdbc-url URL (or " + PG_URL_VARIABLE + " in the environment)");
            }
            if (!url.startsWith("jdbc:postgresql:")) {
                throw new UsageException("--jdbc-url must start with jdbc:postgresql:, got " + PgVectorFleet.redacted(url));
            }
            int tenants = options.integer("pg-tenants", Math.min(profile.tenants(), PG_MAX_TENANTS), 3, 100_000);
            int largest = options.integer("pg-largest", PG_LARGEST, profile.smallest(), 10_000_000);
            int partitions = options.integer("pg-partitions", PG_PARTITIONS, 1, tenants);
            return new PgVectorRun(url, profile.resized(tenants, largest), partitions);
        }
    }

    static PluginContext context(Path work, String role) throws IOException {
        return PluginContext.of(Files.createDirectories(work.resolve(role + "-data")), "io.corpora.cli.bench." + role);
    }

    /** Threads of the bench's own pools: they never keep the JVM alive after its results are written. */
    static ThreadFactory daemonThreads(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    static long sizeOf(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            return paths.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    /** A stamped chunk as the ingest pipeline writes it (tenant, partition, document, version 1, embedder). */
    static EmbeddedChunk chunk(Namespace namespace, String embedderId, int tenant, int index, String text, float[] vector) {
        String documentId = "d" + (index / 10);
        Chunk raw = new Chunk(documentId + "#" + index, documentId, index % 10, text, List.of(),
                Map.of("parity", (long) (index % 2), "source", "bench"));
        Chunk stamped = ReservedKeyStamper.stamp(raw, namespace, documentId, 1);
        Map<String, Object> metadata = new LinkedHashMap<>(stamped.metadata());
        metadata.put(ReservedKeys.EMBEDDER, embedderId);
        return new EmbeddedChunk(stamped.withMetadata(metadata), text, vector);
    }
}
