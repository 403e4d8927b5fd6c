package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.corpora.cli.CorporaCli;
import io.corpora.cli.eval.EvalCommand;
import io.corpora.server.DeployedServer;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code corpora eval --tenant} against the real server (the command in process, over HTTP): it starts an
 * evaluation of a live tenant, follows it, prints the server's metrics and its comparison with the previous comparable run,
 * and exits 3 once a judged document was deleted and the same set scores lower.
 */
class TenantEvalCommandIT extends DeployedServer {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ServerClient client = ServerClient.fromBuild();

    @TempDir
    Path dir;

    private record Run(int exitCode, String out, String err) {
        JsonNode lastJson() throws Exception {
            List<String> lines = out.lines().toList();
            return JSON.readTree(lines.get(lines.size() - 1));
        }
    }

    @Test
    void evaluatesALiveTenantComparesWithThePreviousRunAndFlagsARegression() throws Exception {
        String tenant = TenantFixtures.uniqueId("cli-eval");
        new TenantFixtures(client).create(tenant, List.of(), false);
        String writer = client.token("walt", tenant, Roles.WRITER);
        List<Map<String, Object>> documents = List.of(
                Map.of("id", "d1", "text", "Photosynthesis converts sunlight, water and carbon dioxide into glucose and oxygen in chloroplasts."),
                Map.of("id", "d2", "text", "Mitochondria produce ATP through cellular respiration; glucose is their fuel."),
                Map.of("id", "d3", "text", "Volcanoes erupt when magma rises through the crust and releases gas and lava."),
                Map.of("id", "d4", "text", "Earthquakes happen when tectonic plates slip along a fault and release seismic waves."));
        ServerClient.Response accepted = client.post("api/v1/tenants/" + tenant + "/documents", writer, documents);
        assertEquals(202, accepted.status(), accepted.body());
        assertEquals("SUCCEEDED", new TenantFixtures(client).awaitJob(accepted.location(), writer).get("status").asText());
        Path queries = Files.writeString(dir.resolve("queries.jsonl"), """
                {"_id": "q1", "text": "how do plants make glucose from sunlight"}
                {"_id": "q2", "text": "what causes lava eruptions"}
                {"_id": "q3", "text": "seismic waves from tectonic plates"}
                {"_id": "q9", "text": "a query without judgements is not sent"}
                """);
        Path qrels = Files.writeString(dir.resolve("qrels.tsv"), "query-id\tcorpus-id\tscore\nq1\td1\t2\nq1\td2\t1\nq2\td3\t1\nq3\td4\t2\n");
        Path tokenFile = Files.writeString(dir.resolve("admin.jwt"), client.token("ada", tenant, Roles.TENANT_ADMIN) + "\n");
        List<String> judged = List.of("--tenant", tenant, "--server", client.resolve("").toString(), "--token-file", tokenFile.toString(),
                "--queries", queries.toString(), "--qrels", qrels.toString(), "--candidates", "keyword,vector,convex-minmax:0.6", "--recall-at", "5");

        // without --wait: the id, at once
        Run queued = run(judged);
        assertEquals(0, queued.exitCode(), queued.toString());
        String firstId = queued.out().strip();
        assertTrue(firstId.startsWith("ev-"), queued.toString());
        awaitFinished(tenant, firstId);

        Run second = run(with(judged, "--wait", "--json"));
        assertEquals(0, second.exitCode(), second.toString());
        JsonNode run = second.lastJson();
        assertEquals("SUCCEEDED", run.get("status").asText());
        assertEquals(3, run.get("judgedSet").get("queries").asInt(), "q9 has no judgement and is not sent");
        assertTrue(second.out().contains("previous    " + firstId), second.out());
        assertTrue(second.err().contains("retrievals (100 %)"), "the progress line: " + second.err());
        List<String> labels = new ArrayList<>();
        for (JsonNode candidate : run.get("candidates")) {
            labels.add(candidate.get("label").asText());
            String row = String.format(Locale.ROOT, "%.4f  %10.4f  %8.4f", candidate.get("ndcg10").asDouble(), candidate.get("recall").asDouble(),
                    candidate.get("mrr10").asDouble());
            assertTrue(second.out().contains(row), "the table prints the server's numbers " + row + ":\n" + second.out());
        }
        assertEquals(List.of("keyword", "vector", "hybrid convex(minmax,alpha=0.6)"), labels);
        assertTrue(second.out().contains("Recall@5"), second.out());
        assertTrue(second.out().contains("+0.0000"), "the same corpus scores the same: " + second.out());
        assertFalse(second.out().contains("REGRESSION"), second.out());
        assertTrue(second.out().contains("recommended " + run.get("recommendation").asText()), second.out());

        // the photosynthesis document goes: q1 loses its best judged document on every candidate
        assertEquals(204, client.delete("api/v1/tenants/" + tenant + "/document?id=d1", writer).status());
        Run third = run(with(judged, "--wait"));
        assertEquals(3, third.exitCode(), third.toString());
        assertTrue(third.out().contains("previous    " + run.get("id").asText()), third.out());
        assertTrue(third.out().contains("REGRESSION  keyword: nDCG@10"), third.out());
        assertTrue(third.out().contains("query q1: "), "the query that got worse: " + third.out());
        assertFalse(third.out().contains("query q2: "), third.out());
    }

    @Test
    void refusalsAreReportedWithTheServersReason() throws Exception {
        String tenant = TenantFixtures.uniqueId("cli-eval-no");
        new TenantFixtures(client).create(tenant, List.of(), false);
        Path queries = Files.writeString(dir.resolve("queries.jsonl"), "{\"_id\": \"q1\", \"text\": \"anything\"}\n");
        Path qrels = Files.writeString(dir.resolve("qrels.tsv"), "query-id\tcorpus-id\tscore\nq1\td1\t1\n");
        List<String> judged = List.of("--tenant", tenant, "--server", client.resolve("").toString(), "--queries", queries.toString(),
                "--qrels", qrels.toString());

        Run reader = run(with(judged, "--token", client.token("rita", tenant, Roles.READER)));
        assertEquals(1, reader.exitCode(), reader.toString());
        assertTrue(reader.err().contains("403"), reader.err());

        Run badCandidate = run(with(judged, "--token", client.token("ada", tenant, Roles.TENANT_ADMIN), "--candidates", "convex-minmax"));
        assertEquals(2, badCandidate.exitCode(), badCandidate.toString());
        assertTrue(badCandidate.err().contains("needs an alpha"), badCandidate.err());

        Run noQrels = run(List.of("--tenant", tenant, "--queries", queries.toString()));
        assertEquals(2, noQrels.exitCode(), noQrels.toString());
    }

    private void awaitFinished(String tenant, String id) {
        // a hang guard, not a performance bound
        JsonNode done = new TenantFixtures(client).awaitJob("api/v1/tenants/" + tenant + "/evaluations/" + id,
                client.token("ada", tenant, Roles.TENANT_ADMIN), Duration.ofMinutes(5));
        assertEquals("SUCCEEDED", done.get("status").asText(), done.toString());
    }

    private static List<String> with(List<String> args, String... more) {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of(more));
        return all;
    }

    private static Run run(List<String> args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> line = new ArrayList<>(List.of("eval"));
        line.addAll(args);
        int code = new CorporaCli(List.of(new EvalCommand())).run(line, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
