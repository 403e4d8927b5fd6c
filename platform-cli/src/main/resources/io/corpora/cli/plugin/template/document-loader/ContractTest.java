package {{package}};

import io.corpora.testkit.DocumentLoaderContract;
import java.nio.charset.StandardCharsets;

/** The test kit's document-loader contract, run against {{name}} created through its service file, as the server does. */
class {{Class}}DocumentLoaderContractTest extends DocumentLoaderContract {

    @Override
    protected String providerName() {
        return "{{name}}";
    }

    @Override
    protected byte[] wellFormed(String mediaType) {
        return "A title\n\nThe first paragraph.\n\nThe second paragraph.\n".getBytes(StandardCharsets.UTF_8);
    }

    @Override
    protected Sample malformed() {
        return new Sample({{Class}}DocumentLoaderProvider.MEDIA_TYPE, new byte[] {'o', 'k', (byte) 0xC3, (byte) 0x28});
    }
}
