package {{package}};

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.DocumentLoaderProvider;
import io.corpora.spi.loader.LoadRequest;
import io.corpora.testkit.Providers;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;

class {{Class}}DocumentLoaderContractTest {

    @Test
    void malformedInputIsATypedError() throws Exception {
        DocumentLoader l = Providers.create(DocumentLoaderProvider.class, "{{name}}", Map.of(), Files.createTempDirectory("{{name}}"));
        DocumentLoadException e = assertThrows(DocumentLoadException.class,
                () -> l.load(new LoadRequest(new byte[] {(byte) 0xC3, (byte) 0x28}, "text/x-{{name}}", null, "bad")));
        assertEquals(DocumentLoadException.Reason.MALFORMED, e.reason());
    }
}
