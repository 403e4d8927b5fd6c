package io.corpora.loader.records;

import io.corpora.testkit.DocumentLoaderContract;
import java.nio.charset.StandardCharsets;
import java.util.List;

class CsvLoaderContractTest extends DocumentLoaderContract {

    @Override
    protected String providerName() {
        return "csv";
    }

    @Override
    protected byte[] wellFormed(String mediaType) {
        return "name,role,office\nAda,engineer,Berlin\nGrace,admiral,\"Arlington, VA\"\n".getBytes(StandardCharsets.UTF_8);
    }

    @Override
    protected Sample malformed() {
        return new Sample("text/csv", "a,b\n1,2\n3,4,5\n".getBytes(StandardCharsets.UTF_8)); // a row wider than the header
    }

    @Override
    protected Sample slowDocument() {
        return new Sample("text/csv", ("name,text\n" + "row,some words here\n".repeat(300_000)).getBytes(StandardCharsets.UTF_8));
    }

    @Override
    protected java.util.Map<String, String> config() {
        return java.util.Map.of("maxRecords", "1000000");
    }

    @Override
    protected List<CountLimit> countLimits() {
        return List.of(new CountLimit("maxRecords", "2", new Sample("text/csv", "name\na\nb\nc\n".getBytes(StandardCharsets.UTF_8))));
    }

    @Override
    protected List<Sample> documentsClaimingReservedKeys() {
        return List.of(new Sample("text/csv", "_tenant,_partition,text\nother,secret,Body text.\n".getBytes(StandardCharsets.UTF_8)));
    }
}
