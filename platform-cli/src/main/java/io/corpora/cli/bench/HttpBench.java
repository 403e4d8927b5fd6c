package io.corpora.cli.bench;

import io.corpora.cli.UsageException;
import io.corpora.plugin.loader.PluginRegistry;
import io.corpora.security.DevTokenMinter;
import io.corpora.spi.embed.Embedder;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * Retrieve over HTTP, in the same run as the in-process figures: the profile's smallest, median and largest tenant
 * built in a server of the bench's own ({@link BenchServer}) with the in-process fleet's vectors ({@link HttpTenants}),
 * then p50/p99/throughput at 1, 4 and 16 clients in vector and hybrid mode, with the query's vector cached by the
 * server and with the query embedded by its model ({@link HttpRetrieval}), each beside the in-process figure on the
 * same vectors and queries.
 */
final class HttpBench {

    /** Writers posting documents at once (the server ingests each synchronously). */
    static final int WRITERS = 2;

    /**
     * @param liberty the built Liberty runtime; {@code war} the server's WAR
     * @param port    0 for a free one
     * @param heap    the server's -Xmx
     * @param keep    keep the server's data and document cache under the results folder
     * @param reuse   an earlier run's kept server folder ({@code <out>/server} of a run with {@code keep}) whose tenants
     *                are measured again as they are, with this run's WAR: two builds compared on the same segments; null
     *                to build the tenants afresh
     */
    record Settings(Path liberty, Path war, int port, String heap, boolean keep, Path devKey, int chunksPerDocument, Path reuse) {
        Settings {
            if (!Files.isRegularFile(devKey)) {
                throw new UsageException("--http needs the development key " + devKey.toAbsolutePath() + " to mint tokens");
            }
            if (reuse != null && !Files.isDirectory(reuse.resolve("data"))) {
                throw new UsageException("--http-reuse needs the server folder of a run made with --http-keep (<out>/server, holding"
                        + " data/); " + reuse.toAbsolutePath() + " has no data/");
            }
        }
    }

    private final Profile profile;
    private final BenchCorpus corpus;
    private final Embedder model;
    private final PluginRegistry registry;
    private final Path plugins;
    private final Path work;
    private final Path home;
    private final Settings settings;
    private final PrintStream err;

    HttpBench(Profile profile, BenchCorpus corpus, Embedder model, PluginRegistry registry, Path plugins, Path work, Path outDir,
              Settings settings, PrintStream err) {
        this.profile = profile;
        this.corpus = corpus;
        this.model = model;
        this.registry = registry;
        this.plugins = plugins;
        this.work = work;
        this.home = settings.reuse() != null ? settings.reuse() : outDir.resolve("server");
        this.settings = settings;
        this.err = err;
    }

    void run(List<Fleet.Tenant> measured, BenchResults results) throws Exception {
        HttpTenants tenants = new HttpTenants(corpus, measured, settings.chunksPerDocument());
        Path cache = home.resolve("embedding-cache");
        boolean reused = settings.reuse() != null;
        long start = System.nanoTime();
        long prefilled = 0;
        if (reused) {
            BenchServer.forgetApplication(home); // this run's WAR replaces the one the kept server expanded
            err.printf("bench: http: measuring the tenants kept in %s again; starting the server%n", home.toAbsolutePath());
        } else {
            prefilled = tenants.prefill(cache, model, registry, work);
            err.printf("bench: http: %d chunk vectors written into the server's document cache in %.0f s; starting the server%n", prefilled,
                    seconds(start));
        }
        double prefillSeconds = seconds(start);
        BenchServer server = BenchServer.create(settings.liberty(), settings.war(), plugins, home, settings.port(),
                List.of("-Dcorpora.ingest.embeddingCache.dir=" + cache.toAbsolutePath(), "-Xmx" + settings.heap()));
        BenchHttp http = new BenchHttp(server.baseUri());
        HttpTenants.ServerTokens tokens = new HttpTenants.ServerTokens(DevTokenMinter.fromPem(settings.devKey()));
        try (server) {
            start = System.nanoTime();
            server.start(http);
            double startSeconds = seconds(start);
            err.printf("bench: http: server ready on %s in %.0f s (log %s); %s%n", server.baseUri(), startSeconds, server.console(),
                    reused ? "its tenants are measured as they are" : "creating and ingesting the tenants");
            if (reused) {
                results.httpReused(home, startSeconds, settings.heap());
            } else {
                HttpTenants.Ingested ingested = tenants.ingest(http, tokens, WRITERS, err);
                results.httpBuild(prefilled, prefillSeconds, startSeconds, ingested, tenants.chunksPerDocument(), WRITERS, settings.heap());
            }
            HttpRetrieval retrieval = new HttpRetrieval(http, corpus, tokens);
            for (HttpTenants.Tenant tenant : tenants.tenants()) {
                Path index = namespace(tenant);
                int written = Systems.segments(index);
                results.httpRecall(tenant.inProcess(), retrieval.recallAndWarm(tenant), corpus.queryTexts.size());
                // as the in-process fleet does: the merges an ingest leaves running must not share the cells' CPU, nor
                // the merge the server's store starts once the tenant's writes have paused (one segment needs none)
                Systems.Settled settled = Systems.settle(index, written, Systems.SETTLED_QUIET);
                if (settled.after() > 1) {
                    settled = Systems.settle(index, written, Systems.IDLE_MERGE_QUIET);
                }
                String bucket = tenant.inProcess().bucket();
                results.note("merges before measuring over HTTP, " + bucket + " tenant", settled.describe("its recall queries"));
                err.println("bench: http: " + settled.progress(bucket));
                results.segments(tenant.inProcess(), "in the server (ingested over HTTP, its last commit, merges settled)", settled.after());
            }
            Duration warmup = serverWarmup(profile);
            err.printf("bench: http: warming the server up (%d s of every cell's calls at 4 clients)%n", warmup.toSeconds());
            retrieval.warmUp(tenants.tenants(), 4, warmup);
            for (boolean embedded : new boolean[] {false, true}) { // every cached cell first: unique queries evict cached ones
                ServerMetrics before = ServerMetrics.read(http);
                for (HttpTenants.Tenant tenant : tenants.tenants()) {
                    err.printf("bench: http: measuring the %s tenant (%d chunks), queries %s%n", tenant.inProcess().bucket(), tenant.size(),
                            embedded ? "embedded" : "cached");
                    for (int clients : BenchCommand.CLIENTS) {
                        for (String mode : HttpRetrieval.MODES) {
                            HttpRetrieval.Measured cell = retrieval.cell(tenant, mode, embedded).measure(clients, profile.window(), profile.warmup());
                            results.httpLatency(tenant.inProcess(), HttpRetrieval.system(mode, embedded), cell);
                        }
                    }
                }
                ServerMetrics after = ServerMetrics.read(http);
                results.httpQueryCache(embedded, after.queryCacheHits() - before.queryCacheHits(), after.queryCacheMisses() - before.queryCacheMisses());
            }
        } finally {
            if (!settings.keep() && !reused) {
                server.discardAllButLogs();
                BenchCommand.deleteRecursively(cache);
            }
        }
    }

    /**
     * How long the server runs every kind of call before the first cell: its JIT needs thousands of calls (a freshly
     * started server answered one client in 19 ms at p50 over its first 500 calls and in 6 ms after 4,000, load 12).
     */
    static Duration serverWarmup(Profile profile) {
        return Duration.ofSeconds(Math.max(15, Math.min(60, profile.warmup().multipliedBy(20).toSeconds())));
    }

    /** The server's Lucene index of a tenant's default partition (its data directory's layout: store/tenant/partition). */
    private Path namespace(HttpTenants.Tenant tenant) throws IOException {
        try (Stream<Path> paths = Files.find(home.resolve("data"), 4, (path, attributes) -> attributes.isDirectory()
                && path.getFileName().toString().equals("_default") && path.getParent().getFileName().toString().equals(tenant.id()))) {
            return paths.findFirst().orElseThrow(() -> new IOException("no Lucene index of " + tenant.id() + " under " + home));
        }
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
