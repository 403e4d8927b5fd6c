package io.corpora.loader.html;

import io.corpora.testkit.DocumentLoaderContract;
import java.nio.charset.StandardCharsets;
import java.util.List;

class HtmlLoaderContractTest extends DocumentLoaderContract {

    @Override
    protected String providerName() {
        return "html";
    }

    @Override
    protected byte[] wellFormed(String mediaType) {
        return ("<!DOCTYPE html><html lang=\"en\"><head><title>Travel policy</title>"
                + "<meta name=\"description\" content=\"How we travel\"></head><body><nav>Menu</nav><main>"
                + "<h1>Travel policy</h1><h2>Lodging</h2><p>Hotels up to 180 EUR a night are reimbursed.</p>"
                + "<h2>Trains</h2><ul><li>Trains beat planes under 4 hours.</li></ul></main></body></html>")
                .getBytes(StandardCharsets.UTF_8);
    }

    @Override
    protected Sample malformed() {
        // markup without any text: nothing a user could search
        return Sample.utf8("text/html", "<html><body><nav>Menu</nav><script>var x;</script></body></html>");
    }

    @Override
    protected Sample slowDocument() {
        return new Sample("text/html", "<div>".repeat(400_000).getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    protected List<Sample> documentsClaimingReservedKeys() {
        return List.of(Sample.utf8("text/html", "<html lang=\"_tenant\"><head><meta name=\"_tenant\" content=\"other\">"
                + "<meta name=\"description\" content=\"_partition\"><title>_tenant</title></head><body><p>Body text.</p></body></html>"));
    }
}
