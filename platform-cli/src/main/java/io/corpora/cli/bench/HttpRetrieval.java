package io.corpora.cli.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;

/**
 * {@code POST /api/v1/tenants/{t}/retrieve} as a bench client calls it: a real reader token, the profile's queries,
 * top 10, one mode, through the server's whole stack (HTTP, JAX-RS, JSON-B, JWT verification, access decision, guard,
 * store). "Cached" calls ask the profile's queries, whose vectors the server's query-embedding cache holds once
 * {@link #recallAndWarm} asked each; "embedded" calls append a marker unique to the call ({@code [q<n>]}), so the
 * server's model embeds every one of them. Each call's own {@code diagnostics.totalMillis} (the retrieval inside the
 * server) is kept beside the client's time.
 */
final class HttpRetrieval {

    static final List<String> MODES = List.of("vector", "hybrid");
    /** A context budget all ten passages fit (the tenant default, ~6,000 characters, refuses the last two or three). */
    static final int MAX_CHARS = 10_000;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOTAL_MILLIS = "\"totalMillis\":";

    private final BenchHttp http;
    private final BenchCorpus corpus;
    private final HttpTenants.ServerTokens tokens;
    private final AtomicLong unique = new AtomicLong();

    HttpRetrieval(BenchHttp http, BenchCorpus corpus, HttpTenants.ServerTokens tokens) {
        this.http = http;
        this.corpus = corpus;
        this.tokens = tokens;
    }

    static String system(String mode, boolean embedded) {
        return "http " + mode + (embedded ? " (query embedded)" : " (cached query)");
    }

    /**
     * Asks every query once in vector mode (so the server's query cache holds its vector) and returns recall@10 of the
     * answers against exact search over the tenant's vectors, on every query (the same queries as the in-process
     * recall); each query's hybrid answer must hold 10 passages too.
     */
    double recallAndWarm(HttpTenants.Tenant tenant) throws IOException, InterruptedException {
        String reader = tokens.reader(tenant.id());
        double recall = 0;
        int n = corpus.queryTexts.size();
        for (int q = 0; q < n; q++) {
            JsonNode answer = requireFull(tenant, retrieve(tenant, reader, "vector", corpus.queryTexts.get(q)));
            recall += Fleet.overlap(chunks(answer, tenant.inProcess()), Fleet.exact(tenant.inProcess(), corpus.queryVectors.get(q), false));
            requireFull(tenant, retrieve(tenant, reader, "hybrid", corpus.queryTexts.get(q)));
        }
        return recall / n;
    }

    /** An answer of the top 10 (what the in-process path returns and renders), or the reason it is not. */
    private static JsonNode requireFull(HttpTenants.Tenant tenant, JsonNode answer) throws IOException {
        if (answer.path("passages").size() != Math.min(Systems.TOP_K, tenant.size())) {
            throw new IOException("a retrieval on " + tenant.id() + " returned " + answer.path("passages").size() + " passages: "
                    + answer.path("diagnostics"));
        }
        return answer;
    }

    private JsonNode retrieve(HttpTenants.Tenant tenant, String reader, String mode, String query) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(http.post(path(tenant), reader, body(mode, query)));
        if (response.statusCode() != 200) {
            throw new IOException("retrieve on " + tenant.id() + ": HTTP " + response.statusCode() + " " + response.body());
        }
        return JSON.readTree(response.body());
    }

    /** The chunks an answer's passages name by their markers, as the ids of the same chunks in process (which exact search returns). */
    private static List<String> chunks(JsonNode answer, Fleet.Tenant inProcess) {
        List<String> ids = new ArrayList<>();
        answer.path("passages").forEach(p -> {
            int j = HttpTenants.chunkOf(p.path("text").asText());
            ids.add(j < 0 ? "no marker" : inProcess.ids().get(j));
        });
        return ids;
    }

    /** Runs every cell's calls (each tenant and mode, cached and embedded), in turn, from {@code clients} threads for {@code duration}. */
    void warmUp(List<HttpTenants.Tenant> tenants, int clients, Duration duration) {
        List<Cell> cells = new ArrayList<>();
        for (HttpTenants.Tenant tenant : tenants) {
            for (String mode : MODES) {
                cells.add(cell(tenant, mode, false));
                cells.add(cell(tenant, mode, true));
            }
        }
        Latency.measure(clients, duration, Duration.ZERO, call -> cells.get(Math.floorMod(call, cells.size())).accept(call / cells.size()));
    }

    /** One cell's calls: a thread-safe operation for {@link Latency}, keeping the server's own time of each call. */
    Cell cell(HttpTenants.Tenant tenant, String mode, boolean embedded) {
        return new Cell(path(tenant), tokens.reader(tenant.id()), mode, embedded);
    }

    final class Cell implements IntConsumer {
        private final String path;
        private final String reader;
        private final String mode;
        private final boolean embedded;
        private final ConcurrentLinkedQueue<Double> serverMillis = new ConcurrentLinkedQueue<>();

        private Cell(String path, String reader, String mode, boolean embedded) {
            this.path = path;
            this.reader = reader;
            this.mode = mode;
            this.embedded = embedded;
        }

        @Override
        public void accept(int call) {
            String query = corpus.queryTexts.get(Math.floorMod(call, corpus.queryTexts.size()));
            if (embedded) {
                query = query + " [q" + unique.incrementAndGet() + "]";
            }
            try {
                HttpResponse<String> response = http.once(http.post(path, reader, body(mode, query)));
                if (response.statusCode() != 200) {
                    throw new IOException("HTTP " + response.statusCode() + " " + response.body());
                }
                serverMillis.add(totalMillis(response.body()));
            } catch (IOException e) {
                throw new UncheckedIOException("retrieve " + path + ": " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        /** Runs the cell: {@code warmup} from its clients, unmeasured, then {@code window}; the server's times are the window's. */
        Measured measure(int clients, Duration window, Duration warmup) {
            Latency.measure(clients, warmup, Duration.ZERO, this);
            serverMillis.clear();
            Latency.Result result = Latency.measure(clients, window, Duration.ZERO, this);
            double[] server = serverMillis.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            return new Measured(result, percentile(server, 0.50), percentile(server, 0.99));
        }
    }

    /** A cell's client-side figures and the server's own p50 and p99 of the same calls, in milliseconds. */
    record Measured(Latency.Result client, double serverP50Ms, double serverP99Ms) {}

    private static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        return sorted[Math.max(0, Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1))];
    }

    /** {@code diagnostics.totalMillis} of an answer, without parsing the rest (so the client's cost stays small). */
    static double totalMillis(String body) {
        int at = body.lastIndexOf(TOTAL_MILLIS);
        if (at < 0) {
            return Double.NaN;
        }
        int from = at + TOTAL_MILLIS.length();
        int to = from;
        while (to < body.length() && "0123456789.eE-+".indexOf(body.charAt(to)) >= 0) {
            to++;
        }
        return Double.parseDouble(body.substring(from, to));
    }

    private static String path(HttpTenants.Tenant tenant) {
        return "api/v1/tenants/" + tenant.id() + "/retrieve";
    }

    private static String body(String mode, String query) {
        try {
            return JSON.writeValueAsString(Map.of("query", query, "mode", mode, "topK", Systems.TOP_K, "maxChars", MAX_CHARS));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
