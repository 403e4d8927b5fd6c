package {{package}};

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.corpora.spi.filter.Actor;
import io.corpora.spi.filter.RetrievalFilterHook;
import io.corpora.spi.filter.RetrievalFilterHookProvider;
import io.corpora.testkit.Providers;
import java.nio.file.Files;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class {{Class}}RetrievalFilterHookContractTest {

    @Test
    void failsClosedWithoutTheClaim() throws Exception {
        RetrievalFilterHook h = Providers.create(RetrievalFilterHookProvider.class, "{{name}}", Map.of(), Files.createTempDirectory("{{name}}"));
        assertThrows(RuntimeException.class, () -> h.filterFor(new Actor("acme", "u", Set.of(), Set.of(), Map.of())));
    }
}
