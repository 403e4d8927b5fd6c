package io.corpora.loader.pdf;

import io.corpora.testkit.DocumentLoaderContract;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;

class PdfLoaderContractTest extends DocumentLoaderContract {

    @Override
    protected String providerName() {
        return "pdf";
    }

    @Override
    protected byte[] wellFormed(String mediaType) {
        return TestPdfs.withPages("Travel policy", "Hotels up to 180 EUR a night are reimbursed.", "Trains beat planes under 4 hours.");
    }

    @Override
    protected Sample malformed() {
        return new Sample("application/pdf", TestPdfs.encrypted("owner", "user", true));
    }

    @Override
    protected Sample slowDocument() {
        return new Sample("application/pdf", TestPdfs.manyOperators(1_000_000));
    }

    @Override
    protected List<CountLimit> countLimits() {
        return List.of(new CountLimit("maxPages", "3", new Sample("application/pdf", TestPdfs.withPages(null, "1", "2", "3", "4", "5"))));
    }

    @Override
    protected List<Sample> documentsClaimingReservedKeys() {
        byte[] pdf = TestPdfs.withPages("Claims", "Body text.");
        try (PDDocument document = Loader.loadPDF(pdf); ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            document.getDocumentInformation().setCustomMetadataValue("_tenant", "other");
            document.getDocumentInformation().setCustomMetadataValue("_partition", "secret");
            document.getDocumentInformation().setSubject("_embedder");
            document.save(out);
            return List.of(new Sample("application/pdf", out.toByteArray()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
