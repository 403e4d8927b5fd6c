package {{package}};

import io.corpora.spi.filter.Actor;
import io.corpora.spi.filter.RetrievalFilterHook;
import io.corpora.spi.filter.RetrievalFilterHookProvider;
import io.corpora.testkit.Providers;
import io.corpora.testkit.RetrievalFilterHookContract;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The test kit's filter-hook contract, run against {{name}} created through its service file, as the server does. */
class {{Class}}RetrievalFilterHookContractTest extends RetrievalFilterHookContract {

    @Override
    protected RetrievalFilterHook newHook() throws Exception {
        return Providers.create(RetrievalFilterHookProvider.class, "{{name}}", Map.of(), Files.createTempDirectory("{{name}}"));
    }

    @Override
    protected Actor grantedActor() {
        return new Actor("acme", "alice", Set.of("reader"), Set.of(), Map.of("department", "legal"));
    }

    @Override
    protected List<Map<String, Object>> visibleToGrantedActor() {
        return List.of(Map.of("department", "legal"), Map.of("department", "legal", "year", 2024));
    }

    @Override
    protected List<Map<String, Object>> hiddenFromGrantedActor() {
        return List.of(Map.of("department", "sales"), Map.of("year", 2024), Map.of());
    }
}
