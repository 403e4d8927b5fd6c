package io.corpora.loader.text;

import io.corpora.testkit.DocumentLoaderContract;
import java.nio.charset.StandardCharsets;

class TextLoaderContractTest extends DocumentLoaderContract {

    @Override
    protected String providerName() {
        return "text";
    }

    @Override
    protected byte[] wellFormed(String mediaType) {
        return "Travel policy\n\nHotels up to 180 EUR a night are reimbursed.\nTrains beat planes under 4 hours.\n"
                .getBytes(StandardCharsets.UTF_8);
    }

    @Override
    protected Sample malformed() {
        return new Sample("text/plain", new byte[] {'c', 'a', (byte) 0xC3, 0x28, 'f', 'e'}); // invalid UTF-8
    }

    @Override
    protected Sample slowDocument() {
        return Sample.utf8("text/plain", "many words on many lines\n".repeat(400_000));
    }
}
