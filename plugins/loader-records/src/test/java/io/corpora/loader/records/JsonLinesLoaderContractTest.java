package io.corpora.loader.records;

import java.nio.charset.StandardCharsets;
import java.util.List;

class JsonLinesLoaderContractTest extends RecordLoaderContract {

    @Override
    protected String providerName() {
        return "jsonl";
    }

    @Override
    protected byte[] wellFormed(String mediaType) {
        return "{\"name\": \"Ada\", \"role\": \"engineer\"}\n{\"name\": \"Grace\", \"role\": \"admiral\"}\n".getBytes(StandardCharsets.UTF_8);
    }

    @Override
    protected Sample malformed() {
        return Sample.utf8("application/jsonl", "{\"a\": 1}\n{\"b\": 2}\n{\"c\": tru}\n");
    }

    @Override
    protected Sample slowDocument() {
        return Sample.utf8("application/jsonl", "{\"text\":\"some words here\"}\n".repeat(300_000));
    }

    @Override
    protected Sample threeRecords() {
        return Sample.utf8("application/jsonl", "{\"a\": 1}\n{\"a\": 2}\n{\"a\": 3}\n");
    }

    @Override
    protected List<Sample> documentsClaimingReservedKeys() {
        return List.of(Sample.utf8("application/jsonl", "{\"_tenant\": \"other\", \"_partition\": \"secret\", \"text\": \"Body text.\"}\n"));
    }
}
