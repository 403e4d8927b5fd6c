package io.corpora.loader.records;

import java.nio.charset.StandardCharsets;
import java.util.List;

class JsonLoaderContractTest extends RecordLoaderContract {

    @Override
    protected String providerName() {
        return "json";
    }

    @Override
    protected byte[] wellFormed(String mediaType) {
        return "[{\"name\": \"Ada\", \"role\": \"engineer\", \"tags\": [\"math\", \"engines\"]}, {\"name\": \"Grace\", \"role\": \"admiral\"}]"
                .getBytes(StandardCharsets.UTF_8);
    }

    @Override
    protected Sample malformed() {
        return Sample.utf8("application/json", "[{\"a\": 1}, {\"b\": ");
    }

    @Override
    protected Sample slowDocument() {
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; i < 300_000; i++) {
            json.append(i == 0 ? "" : ",").append("{\"n\":").append(i).append(",\"text\":\"some words here\"}");
        }
        return Sample.utf8("application/json", json.append(']').toString());
    }

    @Override
    protected Sample threeRecords() {
        return Sample.utf8("application/json", "[{\"a\": 1}, {\"a\": 2}, {\"a\": 3}]");
    }

    @Override
    protected List<Sample> documentsClaimingReservedKeys() {
        return List.of(Sample.utf8("application/json", "[{\"_tenant\": \"other\", \"_partition\": \"secret\", \"text\": \"Body text.\"}]"));
    }
}
