package io.corpora.loader.records;

import io.corpora.testkit.DocumentLoaderContract;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

class JsonLinesLoaderContractTest extends DocumentLoaderContract {

    @Override
    protected String providerName() {
        return "jsonl";
    }

    @Override
    protected Map<String, String> config() {
        return Map.of("maxRecords", "1000000");
    }

    @Override
    protected byte[] wellFormed(String mediaType) {
        return "{\"name\": \"Ada\", \"role\": \"engineer\"}\n{\"name\": \"Grace\", \"role\": \"admiral\"}\n".getBytes(StandardCharsets.UTF_8);
    }

    @Override
    protected Sample malformed() {
        return new Sample("application/jsonl", "{\"a\": 1}\n{\"b\": 2}\n{\"c\": tru}\n".getBytes(StandardCharsets.UTF_8));
    }

    @Override
    protected Sample slowDocument() {
        return new Sample("application/jsonl", "{\"text\":\"some words here\"}\n".repeat(300_000).getBytes(StandardCharsets.UTF_8));
    }

    @Override
    protected List<CountLimit> countLimits() {
        return List.of(new CountLimit("maxRecords", "2",
                new Sample("application/jsonl", "{\"a\": 1}\n{\"a\": 2}\n{\"a\": 3}\n".getBytes(StandardCharsets.UTF_8))));
    }

    @Override
    protected List<Sample> documentsClaimingReservedKeys() {
        return List.of(new Sample("application/jsonl",
                "{\"_tenant\": \"other\", \"_partition\": \"secret\", \"text\": \"Body text.\"}\n".getBytes(StandardCharsets.UTF_8)));
    }
}
