package io.corpora.loader.records;

import java.nio.charset.StandardCharsets;
import java.util.List;

class CsvLoaderContractTest extends RecordLoaderContract {

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
        return Sample.utf8("text/csv", "a,b\n1,2\n3,4,5\n"); // a row wider than the header
    }

    @Override
    protected Sample slowDocument() {
        return Sample.utf8("text/csv", "name,text\n" + "row,some words here\n".repeat(300_000));
    }

    @Override
    protected Sample threeRecords() {
        return Sample.utf8("text/csv", "name\na\nb\nc\n");
    }

    @Override
    protected List<Sample> documentsClaimingReservedKeys() {
        return List.of(Sample.utf8("text/csv", "_tenant,_partition,text\nother,secret,Body text.\n"));
    }
}
