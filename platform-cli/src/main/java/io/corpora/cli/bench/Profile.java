package io.corpora.cli.bench;

import java.time.Duration;

/**
 * How big a bench run is. {@code full} is issue 19's deployment shape (10,000 tenants, ~1,000,000 chunks, the largest
 * 100,000); {@code quick} the same shape scaled down to finish in under three minutes on two cores.
 *
 * @param tenants        how many tenants
 * @param largest        chunks of the largest tenant; tenant {@code i} (1-based) holds {@code largest / i^zipf}, at least {@code smallest}
 * @param passages       real passages embedded with the bundled model (cached on disk); every other vector is derived from them
 * @param queries        real queries embedded (cached)
 * @param window         how long each latency cell runs
 * @param warmup         how long each latency cell first runs unmeasured, from the same clients (the same for every system)
 * @param ingestTexts    passages of the ingest measurement (embedded afresh, never from the cache)
 */
public record Profile(String name, int tenants, int largest, int smallest, double zipf, int passages, int queries, Duration window,
                      Duration warmup, int ingestTexts) {

    static final Profile QUICK = new Profile("quick", 200, 5_000, 5, 1.0, 300, 50, Duration.ofMillis(1000), Duration.ofMillis(500), 16);
    static final Profile MEDIUM = new Profile("medium", 2_000, 30_000, 5, 1.0, 5_000, 200, Duration.ofSeconds(4), Duration.ofSeconds(2), 256);
    static final Profile FULL = new Profile("full", 10_000, 100_000, 10, 1.0, 50_000, 300, Duration.ofSeconds(10), Duration.ofSeconds(3), 512);

    static Profile named(String name) {
        return switch (name) {
            case "quick" -> QUICK;
            case "medium" -> MEDIUM;
            case "full" -> FULL;
            default -> throw new IllegalArgumentException("profile must be quick, medium or full, got '" + name + "'");
        };
    }

    /** The same Zipf shape, windows and corpus at another fleet size (the pgvector fleet's, which costs more to build). */
    Profile resized(int tenants, int largest) {
        return new Profile(name, tenants, largest, smallest, zipf, passages, queries, window, warmup, ingestTexts);
    }

    /** The same profile measuring ingest on another number of passages ({@code bench --ingest-texts}). */
    Profile withIngestTexts(int texts) {
        return new Profile(name, tenants, largest, smallest, zipf, passages, queries, window, warmup, texts);
    }

    /** Chunks of tenant {@code rank} (1 = largest). */
    int sizeOf(int rank) {
        return Math.max(smallest, (int) Math.round(largest / Math.pow(rank, zipf)));
    }

    long totalChunks() {
        long total = 0;
        for (int rank = 1; rank <= tenants; rank++) {
            total += sizeOf(rank);
        }
        return total;
    }
}
