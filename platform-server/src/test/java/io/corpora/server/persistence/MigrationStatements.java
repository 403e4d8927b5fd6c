package io.corpora.server.persistence;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The statements of one control-plane migration file, as Flyway runs them, for tests that run a migration's data step
 * again on rows written after it (the fixture cannot stop Flyway before the migration under test).
 */
final class MigrationStatements {

    private MigrationStatements() {}

    /** {@code file}'s statements (e.g. {@code V14__tenant_usage.sql}), comments dropped, each on one line. */
    static List<String> of(String file) {
        String script;
        try (InputStream in = MigrationStatements.class.getResourceAsStream("/db/migration/control-plane/" + file)) {
            if (in == null) {
                throw new IllegalArgumentException("no control-plane migration " + file);
            }
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String code = script.lines().filter(line -> !line.startsWith("--") && !line.isBlank()).collect(Collectors.joining(" "));
        return Arrays.stream(code.split(";")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    /** The one statement of {@code file} that starts with {@code prefix} (case-insensitive). */
    static String starting(String file, String prefix) {
        List<String> found = of(file).stream().filter(s -> s.regionMatches(true, 0, prefix, 0, prefix.length())).toList();
        if (found.size() != 1) {
            throw new IllegalStateException(file + " has " + found.size() + " statements starting with '" + prefix + "'");
        }
        return found.get(0);
    }
}
