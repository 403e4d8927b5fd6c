package io.corpora.loader.text;

import io.corpora.testkit.DocumentLoaderContract;
import java.nio.charset.StandardCharsets;
import java.util.List;

class MarkdownLoaderContractTest extends DocumentLoaderContract {

    @Override
    protected String providerName() {
        return "markdown";
    }

    @Override
    protected byte[] wellFormed(String mediaType) {
        return ("---\ntitle: Travel policy\ntags: [travel, expenses]\n---\n# Travel policy\n\n## Lodging\n\n"
                + "Hotels up to 180 EUR a night are reimbursed.\n\n## Trains\n\n- Trains beat planes under 4 hours.\n")
                .getBytes(StandardCharsets.UTF_8);
    }

    @Override
    protected Sample malformed() {
        return Sample.utf8("text/markdown", "---\ntags: [a, b\n---\nbody\n"); // invalid YAML
    }

    @Override
    protected Sample slowDocument() {
        return Sample.utf8("text/markdown", "## Heading\n\nsome words in a paragraph\n\n".repeat(200_000));
    }

    @Override
    protected List<Sample> documentsClaimingReservedKeys() {
        return List.of(Sample.utf8("text/markdown", "---\n_tenant: other\n_partition: secret\n_embedder: x\naudience: public\n---\n"
                + "# Claims\n\nBody text.\n"));
    }
}
