package io.corpora.store.pgvector;

import io.corpora.spi.config.PluginConfig;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Prints the store's DDL for given options, without a database, for operators who run migrations by hand:
 * <pre>
 * java -cp 'store-pgvector/*:platform-api.jar' io.corpora.store.pgvector.PrintSchema dimension=768 metric=l2 [--concurrently]
 * </pre>
 * Options are the provider's ({@code key=value}); connection options may be omitted.
 */
public final class PrintSchema {

    private PrintSchema() {}

    public static void main(String[] args) {
        boolean concurrently = false;
        Map<String, String> options = new LinkedHashMap<>();
        for (String arg : args) {
            if (arg.equals("--concurrently")) {
                concurrently = true;
                continue;
            }
            int eq = arg.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("expected key=value or --concurrently, got: " + arg);
            }
            options.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        print(statements(options, concurrently), System.out);
    }

    /** The DDL for the options; a placeholder connection route is supplied when none is given (nothing connects). */
    static List<String> statements(Map<String, String> options, boolean concurrently) {
        Map<String, String> withRoute = new LinkedHashMap<>(options);
        if (!withRoute.containsKey(PgVectorOptions.DATA_SOURCE) && !withRoute.containsKey(PgVectorOptions.JDBC_URL)) {
            withRoute.put(PgVectorOptions.DATA_SOURCE, "unused/print-schema");
        }
        PluginConfig config = PluginConfig.validate(PgVectorStoreProvider.NAME, PgVectorOptions.all(), withRoute);
        return new ChunkSchema(PgVectorStoreProvider.settings(config)).statements(concurrently);
    }

    static void print(List<String> statements, PrintStream out) {
        for (String statement : statements) {
            out.println(statement + ";");
            out.println();
        }
    }
}
