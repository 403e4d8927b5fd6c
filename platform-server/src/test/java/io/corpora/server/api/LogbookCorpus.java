package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.ServerClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A test corpus of lantern logbooks, a few chunks each, ingested as one batch job per partition. */
final class LogbookCorpus {

    static final String QUERY = "who trimmed the lantern wick at the harbour";

    private LogbookCorpus() {}

    /** Ingests logbooks {@code log-0..count-1} ({@code <partition>-log-…} in a partition) and waits for the job. */
    static void ingest(ServerClient client, TenantFixtures fixtures, String tenant, String writer, String partition, int count) {
        List<Map<String, Object>> batch = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Map<String, Object> document = new LinkedHashMap<>();
            document.put("id", (partition == null ? "log-" : partition + "-log-") + i);
            document.put("text", logbook(i));
            if (partition != null) {
                document.put("partition", partition);
            }
            batch.add(document);
        }
        ServerClient.Response accepted = client.post("api/v1/tenants/" + tenant + "/documents", writer, batch);
        assertEquals(202, accepted.status(), accepted.body());
        JsonNode job = fixtures.awaitJob(accepted.location(), writer);
        assertEquals("SUCCEEDED", job.get("status").asText(), job.toString());
    }

    private static String logbook(int n) {
        StringBuilder text = new StringBuilder("# Lantern log " + n + "\n\n");
        for (int entry = 0; entry < 30; entry++) {
            text.append("Entry ").append(entry).append(": the keeper of harbour ").append((n * 7 + entry) % 13)
                    .append(" trimmed wick ").append(entry).append(", refilled the oil and noted the tide at ")
                    .append((n + entry) % 24).append(" hours. ");
        }
        return text.toString();
    }
}
