package io.corpora.loader.records;

import io.corpora.testkit.DocumentLoaderContract;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

class JsonLoaderContractTest extends DocumentLoaderContract {

    @Override
    protected String providerName() {
        return "json";
    }

    @Override
    protected Map<String, String> config() {
        return Map.of("maxRecords", "1000000");
    }

    @Override
    protected byte[] wellFormed(String mediaType) {
        return "[{\"name\": \"Ada\", \"role\": \"engineer\", \"tags\": [\"math\", \"engines\"]}, {\"name\": \"Grace\", \"role\": \"admiral\"}]"
                .getBytes(StandardCharsets.UTF_8);
    }

    @Override
    protected Sample malformed() {
        return new Sample("application/json", "[{\"a\": 1}, {\"b\": ".getBytes(StandardCharsets.UTF_8));
    }

    @Override
    protected Sample slowDocument() {
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; i < 300_000; i++) {
            json.append(i == 0 ? "" : ",").append("{\"n\":").append(i).append(",\"text\":\"some words here\"}");
        }
        return new Sample("application/json", json.append(']').toString().getBytes(StandardCharsets.UTF_8));
    }

    @Override
    protected List<CountLimit> countLimits() {
        return List.of(new CountLimit("maxRecords", "2",
                new Sample("application/json", "[{\"a\": 1}, {\"a\": 2}, {\"a\": 3}]".getBytes(StandardCharsets.UTF_8))));
    }

    @Override
    protected List<Sample> documentsClaimingReservedKeys() {
        return List.of(new Sample("application/json",
                "[{\"_tenant\": \"other\", \"_partition\": \"secret\", \"text\": \"Body text.\"}]".getBytes(StandardCharsets.UTF_8)));
    }
}
