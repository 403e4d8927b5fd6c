package {{package}};

import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.store.VectorStore;
import io.corpora.spi.store.VectorStoreProvider;
import io.corpora.testkit.Providers;
import io.corpora.testkit.VectorStoreContract;
import java.nio.file.Files;
import java.util.Map;

/** The test kit's vector-store contract, run against {{name}} created through its service file, as the server does. */
class {{Class}}VectorStoreContractTest extends VectorStoreContract {

    @Override
    protected VectorStore newStore(VectorSimilarity metric, int dimension) throws Exception {
        String name = switch (metric) {
            case COSINE -> "cosine";
            case L2 -> "l2";
            case INNER_PRODUCT -> "inner";
        };
        return Providers.create(VectorStoreProvider.class, "{{name}}",
                Map.of("metric", name, "dimension", Integer.toString(dimension)), Files.createTempDirectory("{{name}}"));
    }
}
