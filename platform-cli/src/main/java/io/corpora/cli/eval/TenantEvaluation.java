package io.corpora.cli.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.corpora.cli.Options;
import io.corpora.cli.ServerTask;
import io.corpora.cli.ServerToken;
import io.corpora.cli.UsageException;
import io.corpora.engine.retriever.FusionSpec;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code corpora eval --tenant T}: a judged set evaluated on a live tenant by the server ({@code POST
 * /api/v1/tenants/{tenant}/evaluations}, tenant-admin), through the tenant's real store, embedder, hook and partition.
 * With {@code --wait} it follows the run with a progress line, prints every candidate's metrics and the server's
 * comparison with the tenant's previous comparable run, and exits {@link #EXIT_REGRESSION} when the server flagged a
 * regression (a candidate's nDCG@10 fell by more than {@code --max-drop}, sent as the request's {@code maxDrop}). The
 * metrics and the comparison are the server's; this class only sends, follows and prints.
 */
final class TenantEvaluation {

    static final int EXIT_FAILED = 1;
    static final int EXIT_REGRESSION = 3;
    /** The server's bound on judged queries per evaluation. */
    static final int MAX_QUERIES = 2000;

    static final Set<String> VALUED = Set.of("tenant", "server", "dataset", "split", "queries", "qrels", "limit-queries", "candidates",
            "groups", "partition", "recall-at", "timeout", "max-drop", "token", "token-file", "key");
    static final Set<String> FLAGS = Set.of("wait", "json");

    static final String USAGE = """
            usage: corpora eval --tenant T --server URL (--dataset DIR [--split S] | --queries FILE --qrels FILE) [options]
              Runs the judged set on the live tenant T (its real store, embedder, filter hook and partition) as an
              evaluation of the server; the tenant must already hold the judged documents.
              --tenant T            the tenant to evaluate (needs a tenant-admin token of T)
              --server URL          the Corpora server; default http://localhost:9080
              --dataset DIR         a BEIR folder: its split's queries and qrels are sent (the corpus is not)
              --split NAME          test (default) or train
              --queries FILE        BEIR queries.jsonl ({"_id", "text"} per line) …
              --qrels FILE          … and BEIR qrels TSV (query-id, corpus-id, score; header line)
              --limit-queries N     only the first N judged queries (the server takes at most 2,000)
              --candidates LIST     configurations to compare, comma-separated: vector | keyword | hybrid |
                                    rrf[:K[:VW:KW]] | convex-minmax:ALPHA | convex-zscore:ALPHA (a fusion = hybrid with it);
                                    default: the server's list (the tenant's current configuration first)
              --groups G1,G2        retrieve as an actor in these ACL groups (default: the token's)
              --partition P         retrieve in this partition
              --recall-at K         the k of Recall@k, 1..100 (default 100)
              --wait                follow the run, print the metrics and the comparison with the previous run;
                                    exit 3 when a candidate's nDCG@10 fell by more than --max-drop, 1 when it FAILED
              --max-drop X          the nDCG@10 fall that is a regression (default 0.01)
              --timeout MINUTES     how long --wait waits (default 60)
              --json                with --wait, also print the server's evaluation as one JSON line last
              --token JWT | --token-file FILE   a tenant-admin token; default $CORPORA_TOKEN, else a DEVELOPMENT token
              --key FILE            the development private key to mint that token with (default: the repository's)""";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int BAR = 30;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
            .followRedirects(HttpClient.Redirect.NEVER).build();

    int run(List<String> args, PrintStream out, PrintStream err) throws IOException, InterruptedException {
        Options options = Options.parse(args, VALUED, FLAGS);
        String tenant = options.requireString("tenant");
        URI server = URI.create(options.string("server", "http://localhost:9080").replaceAll("/+$", "") + "/");
        URI evaluations = server.resolve("api/v1/tenants/" + URLEncoder.encode(tenant, StandardCharsets.UTF_8).replace("+", "%20") + "/evaluations");
        double maxDrop = options.decimal("max-drop").orElse(0.01);
        if (maxDrop < 0) {
            throw new UsageException("option --max-drop must be ≥ 0, got " + maxDrop);
        }
        Duration timeout = Duration.ofMinutes(options.integer("timeout", 60, 1, 24 * 60));
        ObjectNode body = body(options, judgedSet(options)).put("maxDrop", maxDrop);
        String token = ServerToken.resolve(options, "eval", tenant, "tenant-admin", Map.of(), err);

        Reply accepted = send(HttpRequest.newBuilder(evaluations).POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
                .header("Content-Type", "application/json"), token);
        if (accepted.status() != 202) {
            err.println("corpora eval: the server refused the evaluation: " + accepted.problem());
            return EXIT_FAILED;
        }
        String id = accepted.json().path("id").asText();
        URI evaluation = URI.create(evaluations + "/" + URLEncoder.encode(id, StandardCharsets.UTF_8));
        err.printf("corpora eval: evaluation %s of tenant %s queued: %d judged queries, %d retrievals%n", id, tenant,
                body.path("queries").size(), accepted.json().path("progress").path("total").asInt());
        if (!options.flag("wait")) {
            out.println(id);
            err.println("follow it: GET " + evaluation + " (with a tenant-admin token)");
            return 0;
        }

        JsonNode done = follow(evaluation, token, timeout, err);
        if (!"SUCCEEDED".equals(done.path("status").asText())) {
            err.println("corpora eval: evaluation " + id + " " + done.path("status").asText() + ": " + done.path("error").asText("(no reason given)"));
            return EXIT_FAILED;
        }
        out.println(table(tenant, done));
        if (options.flag("json")) {
            out.println(JSON.writeValueAsString(done));
        }
        return done.path("regression").asBoolean() ? EXIT_REGRESSION : 0;
    }

    /** Query id → text and query id → document id → grade, only of queries with a judgement, in file order. */
    private static ObjectNode judgedSet(Options options) {
        BeirDataset dataset;
        try {
            if (options.string("dataset").isPresent()) {
                if (options.string("queries").isPresent() || options.string("qrels").isPresent()) {
                    throw new UsageException("give --dataset, or --queries with --qrels, not both");
                }
                dataset = BeirDataset.open(Path.of(options.string("dataset").get()), options.string("split", "test"));
            } else if (options.string("queries").isPresent() && options.string("qrels").isPresent()) {
                dataset = BeirDataset.judged(Path.of(options.string("queries").get()), Path.of(options.string("qrels").get()));
            } else {
                throw new UsageException("give the judged set: --dataset DIR, or --queries FILE with --qrels FILE");
            }
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        int limit = options.integer("limit-queries", Integer.MAX_VALUE, 1, Integer.MAX_VALUE);
        Map<String, Map<String, Integer>> qrels = dataset.qrels();
        ObjectNode set = JSON.createObjectNode();
        ObjectNode queries = set.putObject("queries");
        ObjectNode grades = set.putObject("qrels");
        for (BeirDataset.Query query : dataset.queries()) {
            Map<String, Integer> judged = qrels.get(query.id());
            if (judged == null || queries.has(query.id()) || queries.size() >= limit) {
                continue;
            }
            queries.put(query.id(), query.text());
            ObjectNode perDocument = grades.putObject(query.id());
            judged.forEach(perDocument::put);
        }
        if (queries.isEmpty()) {
            throw new UsageException("no query of the judged set has a judgement in the qrels");
        }
        if (queries.size() > MAX_QUERIES) {
            throw new UsageException(queries.size() + " judged queries; the server evaluates at most " + MAX_QUERIES + " (pass --limit-queries)");
        }
        return set;
    }

    /** The request body: the judged set with the candidates, actor and Recall@k asked for. */
    private static ObjectNode body(Options options, ObjectNode body) {
        options.string("candidates").ifPresent(list -> {
            ArrayNode candidates = body.putArray("candidates");
            Arrays.stream(list.split(",")).map(String::strip).filter(c -> !c.isEmpty()).forEach(c -> candidates.add(candidate(c)));
        });
        if (options.string("groups").isPresent() || options.string("partition").isPresent()) {
            ObjectNode actor = body.putObject("actor");
            options.string("groups").ifPresent(groups -> {
                ArrayNode list = actor.putArray("groups");
                Arrays.stream(groups.split(",")).map(String::strip).filter(g -> !g.isEmpty()).forEach(list::add);
            });
            options.string("partition").ifPresent(p -> actor.put("partition", p));
        }
        options.string("recall-at").ifPresent(k -> body.put("recallAt", options.integer("recall-at", 100, 1, 100)));
        return body;
    }

    /** {@code vector}, {@code keyword}, {@code hybrid}, or a fusion label (hybrid with that fusion). */
    static ObjectNode candidate(String label) {
        ObjectNode candidate = JSON.createObjectNode();
        if (Set.of("vector", "keyword", "hybrid").contains(label)) {
            return candidate.put("mode", label);
        }
        FusionSpec fusion;
        try {
            fusion = FusionSpec.parse(label);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--candidates: " + e.getMessage() + " (or vector, keyword, hybrid)");
        }
        candidate.put("mode", "hybrid");
        ObjectNode f = candidate.putObject("fusion").put("method", fusion.method());
        if (fusion.method().equals(FusionSpec.RRF)) {
            f.put("k", fusion.k()).put("vectorWeight", fusion.vectorWeight()).put("keywordWeight", fusion.keywordWeight());
        } else {
            f.put("alpha", fusion.alpha()).put("normalization", fusion.normalization());
        }
        return candidate;
    }

    /** Follows the evaluation to its end, drawing its progress on {@code err}. */
    private JsonNode follow(URI evaluation, String token, Duration timeout, PrintStream err) throws IOException, InterruptedException {
        try {
            return ServerTask.polled(http, evaluation).follow(token, timeout, state -> {
                JsonNode progress = state.path("progress");
                int percent = progress.path("percent").asInt();
                int filled = BAR * Math.min(100, percent) / 100;
                err.printf("\r[%s%s] %d/%d retrievals (%d %%) %s ", "#".repeat(filled), "-".repeat(BAR - filled), progress.path("done").asInt(),
                        progress.path("total").asInt(), percent, state.path("status").asText());
            });
        } finally {
            err.println(); // ends the progress line
        }
    }

    /** The server's numbers and its comparison with the previous comparable run, as a person reads them. */
    static String table(String tenant, JsonNode run) {
        int recallAt = run.path("recallAt").asInt();
        StringBuilder b = new StringBuilder();
        JsonNode actor = run.path("actor");
        b.append(String.format(Locale.ROOT, "evaluation  %s of tenant %s (%s), %d judged queries, %d judgements%n", run.path("id").asText(), tenant,
                run.path("created").asText(), run.path("judgedSet").path("queries").asInt(), run.path("judgedSet").path("judgements").asInt()));
        b.append(String.format(Locale.ROOT, "actor       %s, groups %s, partition %s%n", actor.path("subject").asText(), actor.path("groups"),
                actor.path("partition").isNull() || actor.path("partition").isMissingNode() ? "default" : actor.path("partition").asText()));
        String previous = null;
        int width = 9;
        for (JsonNode c : run.path("candidates")) {
            width = Math.max(width, c.path("label").asText().length());
            if (previous == null && c.path("comparison").hasNonNull("previous")) {
                previous = c.path("comparison").path("previous").asText();
            }
        }
        b.append(previous == null ? "previous    none on the same judged set\n" : "previous    " + previous + "\n");
        String recall = "Recall@" + recallAt;
        b.append(String.format(Locale.ROOT, "%n%-" + width + "s  %8s  %10s  %8s  %6s  %10s%n", "candidate", "nDCG@10", recall, "MRR@10", "failed",
                "vs previous"));
        for (JsonNode c : run.path("candidates")) {
            JsonNode comparison = c.path("comparison");
            String change = comparison.isObject() ? String.format(Locale.ROOT, "%+.4f", comparison.path("ndcg10Delta").asDouble()) : "-";
            b.append(String.format(Locale.ROOT, "%-" + width + "s  %8.4f  %10.4f  %8.4f  %6d  %10s%s%n", c.path("label").asText(),
                    c.path("ndcg10").asDouble(), c.path("recall").asDouble(), c.path("mrr10").asDouble(), c.path("failedQueries").asInt(), change,
                    comparison.path("regression").asBoolean() ? "  REGRESSION" : ""));
        }
        if (run.hasNonNull("recommendation")) {
            b.append(String.format(Locale.ROOT, "%nrecommended %s (apply: POST …/evaluations/%s:apply; nothing changes until then)",
                    run.path("recommendation").asText(), run.path("id").asText()));
        }
        for (JsonNode c : run.path("candidates")) {
            JsonNode comparison = c.path("comparison");
            if (!comparison.path("regression").asBoolean()) {
                continue;
            }
            double now = c.path("ndcg10").asDouble();
            double delta = comparison.path("ndcg10Delta").asDouble();
            b.append(String.format(Locale.ROOT, "%nREGRESSION  %s: nDCG@10 %.4f → %.4f (fell %.4f, more than %.4f)", c.path("label").asText(),
                    now - delta, now, -delta, comparison.path("maxDrop").asDouble()));
            for (JsonNode w : comparison.path("worse")) {
                b.append(String.format(Locale.ROOT, "%n            query %s: %.4f → %.4f", w.path("queryId").asText(), w.path("before").asDouble(),
                        w.path("after").asDouble()));
            }
        }
        return b.toString();
    }

    private record Reply(int status, String body) {
        JsonNode json() throws IOException {
            return JSON.readTree(body);
        }

        String problem() {
            return ServerTask.problem(status, body);
        }
    }

    private Reply send(HttpRequest.Builder request, String token) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + token)
                .header("Accept", "application/json").build(), HttpResponse.BodyHandlers.ofString());
        return new Reply(response.statusCode(), response.body());
    }
}
