package io.corpora.store.pgvector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.config.InvalidConfigException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import org.junit.jupiter.api.Test;

/**
 * Table and column names cannot be bound, so they are validated before any SQL exists. Every hostile name is
 * refused at configuration time: the JDBC URL points at a closed port, so a refusal that came from a connection
 * attempt would surface as a different exception.
 */
class HostileIdentifierTest {

    private static final String UNREACHABLE = "jdbc:postgresql://127.0.0.1:1/never";

    private static final List<String> HOSTILE_NAMES = List.of(
            "chunks; DROP TABLE corpora_chunks; --",
            "chunks\"; DROP TABLE x; --",
            "\"chunks\"",
            "chunks x",
            "chunks--",
            "chunks/**/",
            "Chunks",
            "chünks",
            "1chunks",
            "chunks'",
            "a.b.c",
            ".chunks",
            "chunks.",
            "select",
            "public.select",
            "x".repeat(64),
            "chunks\u0000x",
            "chunks\nDROP TABLE x");

    private static InvalidConfigException refused(Map<String, String> options) {
        Map<String, String> all = new LinkedHashMap<>(Map.of(PgVectorOptions.JDBC_URL, UNREACHABLE));
        all.putAll(options);
        PgVectorStoreProvider provider = new PgVectorStoreProvider();
        PluginConfig config;
        try {
            config = PluginConfig.validate(provider.name(), provider.configOptions(), all);
        } catch (InvalidConfigException byDeclaration) { // refused by the option's declaration, before the provider sees it
            return byDeclaration;
        }
        InvalidConfigException refused = assertThrows(InvalidConfigException.class, () -> provider.create(
                PluginContext.of(Path.of("target"), "test"), config), "options " + options + " must be refused");
        assertEquals(refused.problems(), assertThrows(InvalidConfigException.class, () -> provider.validate(config)).problems(),
                "refused where a definition enters too");
        return refused;
    }

    @Test
    void hostileTableNamesAreRefusedBeforeAnyConnection() {
        for (String table : HOSTILE_NAMES) {
            InvalidConfigException e = refused(Map.of(PgVectorOptions.TABLE, table));
            assertTrue(e.getMessage().contains("table"), "the error names the option: " + e.getMessage());
        }
    }

    @Test
    void hostileColumnOverridesAreRefused() {
        for (String column : HOSTILE_NAMES) {
            if (column.contains(",")) {
                continue; // a comma splits the list; covered by the entries themselves
            }
            InvalidConfigException e = refused(Map.of(PgVectorOptions.COLUMNS, "metadata=" + column));
            assertTrue(e.getMessage().contains("metadata"), "the error names the column: " + e.getMessage());
        }
        assertTrue(refused(Map.of(PgVectorOptions.COLUMNS, "nosuch=thing")).getMessage().contains("unknown logical column 'nosuch'"));
        assertTrue(refused(Map.of(PgVectorOptions.COLUMNS, "text=metadata")).getMessage().contains("used twice"));
        assertTrue(refused(Map.of(PgVectorOptions.COLUMNS, "text")).getMessage().contains("logical=physical"));
    }

    @Test
    void everyOtherSplicedSettingIsCheckedToo() {
        refused(Map.of(PgVectorOptions.FULL_TEXT_LANGUAGE, "english'::regconfig); DROP TABLE x; --"));
        refused(Map.of(PgVectorOptions.METRIC, "cosine; DROP"));
        refused(Map.of(PgVectorOptions.DIMENSION, "8); DROP TABLE x; --"));
        refused(Map.of(PgVectorOptions.DIMENSION, "0"));
        refused(Map.of(PgVectorOptions.DIMENSION, "2001"));
        refused(Map.of(PgVectorOptions.ITERATIVE_SCAN, "relaxed_order'; SET x"));
        refused(Map.of(PgVectorOptions.EF_SEARCH, "1001"));
        refused(Map.of(PgVectorOptions.HNSW_M, "1"));
        refused(Map.of(PgVectorOptions.STOP_WORDS, "klingon"));
        refused(Map.of(PgVectorOptions.DATA_SOURCE, "jdbc/corpora"));
    }

    @Test
    void plainNamesAreAcceptedAndSchemaQualificationWorks() {
        PgVectorSettings settings = PgVectorStoreProvider.settings(TestDatabase.config(Map.of(
                PgVectorOptions.JDBC_URL, UNREACHABLE,
                PgVectorOptions.TABLE, "rag.tenant_chunks_v2",
                PgVectorOptions.COLUMNS, "text=body, embedding=vec_384, metadata=attrs")));
        assertEquals("rag.tenant_chunks_v2", settings.table());
        assertEquals("body", settings.columns().text());
        assertEquals("vec_384", settings.columns().embedding());
        assertEquals("attrs", settings.columns().metadata());
        assertEquals("chunk_id", settings.columns().id());
    }
}
