package io.corpora.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CorporaCliTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return new CorporaCli(CorporaCli.COMMANDS).run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void helpListsTheCommands() {
        assertEquals(0, run("help"));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("eval "));
    }

    @Test
    void anUnknownCommandIsAUsageError() {
        assertEquals(2, run("frobnicate"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown command 'frobnicate'"));
    }

    @Test
    void badOptionsAreUsageErrorsNamingTheOption() {
        assertEquals(2, run("eval", "--mode", "bm25"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("option --dataset is required"), err.toString(StandardCharsets.UTF_8));
        assertEquals(2, run("eval", "--dataset", "/nonexistent", "--bogus"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown option --bogus"));
        assertEquals(2, run("eval", "--dataset", "/nonexistent"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("/nonexistent does not exist"));
        assertEquals(2, run("eval", "--dataset", "/nonexistent", "--doc-chunks", "1,two"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--doc-chunks: expected whole numbers 1..10, got 'two'"),
                err.toString(StandardCharsets.UTF_8));
        assertEquals(2, run("eval", "--dataset", "/nonexistent", "--store-config", "keyword.titleBoost"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--store-config: expected KEY=VALUE, got 'keyword.titleBoost'"),
                err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void commandHelpPrintsItsUsage() {
        assertEquals(0, run("eval", "--help"));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("--rerank-depth"));
    }

    @Test
    void optionsParseValuesFlagsAndInlineValuesAndRejectMistakes() {
        Options options = Options.parse(List.of("--mode=hybrid", "--json", "--depth", "200"), Set.of("mode", "depth"), Set.of("json"));
        assertEquals("hybrid", options.string("mode", "bm25"));
        assertTrue(options.flag("json"));
        assertEquals(200, options.integer("depth", 300, 100, 1000));
        assertThrows(UsageException.class, () -> options.integer("depth", 0, 500, 1000));
        assertThrows(UsageException.class, () -> Options.parse(List.of("--depth"), Set.of("depth"), Set.of()));
        assertThrows(UsageException.class, () -> Options.parse(List.of("stray"), Set.of(), Set.of()));
        assertThrows(UsageException.class, () -> Options.parse(List.of("--json=yes"), Set.of(), Set.of("json")));
        assertThrows(UsageException.class, () -> Options.parse(List.of("--k1", "x"), Set.of("k1"), Set.of()).decimal("k1"));
    }
}
