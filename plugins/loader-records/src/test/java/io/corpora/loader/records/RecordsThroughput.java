package io.corpora.loader.records;

import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.LoadRequest;
import io.corpora.testkit.Loaders;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * Measurement, run by hand (not a test): records per second for 100,000 records as JSON, JSONL and CSV.
 * {@code mvn -q -o -f plugins/loader-records/pom.xml test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=io.corpora.loader.records.RecordsThroughput}
 */
public final class RecordsThroughput {

    private static final int RECORDS = 100_000;

    private RecordsThroughput() {}

    public static void main(String[] args) {
        StringBuilder json = new StringBuilder("[");
        StringBuilder jsonl = new StringBuilder();
        StringBuilder csv = new StringBuilder("id,name,city,notes\n");
        for (int i = 0; i < RECORDS; i++) {
            String object = "{\"id\":" + i + ",\"name\":\"Person " + i + "\",\"address\":{\"city\":\"Lyon\"},"
                    + "\"tags\":[\"a\",\"b\"],\"notes\":\"Prefers email, works remotely on Fridays.\"}";
            json.append(i == 0 ? "" : ",").append(object);
            jsonl.append(object).append('\n');
            csv.append(i).append(",Person ").append(i).append(",Lyon,\"Prefers email, works remotely on Fridays.\"\n");
        }
        json.append(']');
        measure("json", "application/json", json.toString());
        measure("jsonl", "application/x-ndjson", jsonl.toString());
        measure("csv", "text/csv", csv.toString());
    }

    private static void measure(String provider, String mediaType, String content) {
        DocumentLoader loader = Loaders.create(provider, Map.of());
        LoadRequest request = new LoadRequest(content.getBytes(StandardCharsets.UTF_8), mediaType, null, "bench");
        double seconds = Loaders.secondsPerLoad(loader, request, 5);
        System.out.printf(Locale.ROOT, "%s: %d records (%.1f MB): %.0f records/s, %.0f ms per document%n", provider, RECORDS,
                request.bytes().length / 1048576.0, RECORDS / seconds, seconds * 1000);
    }
}
