package io.corpora.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.corpora.spi.PluginProvider;
import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.InvalidConfigException;
import io.corpora.spi.config.PluginConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Records a provider's declared options as a table (Trino's {@code assertRecordedDefaults}): every option's name, type,
 * default, bounds and aliases, so that a changed default, a dropped bound or a renamed knob is a visible diff in the
 * provider's test rather than a silent change of behaviour. Descriptions are left out: rewording one is no change.
 *
 * <p>The expected table is plain text, one row per option in declaration order, cells separated by {@code |}, a
 * leading header row and any padding optional; an empty cell is "none". On a mismatch the failure shows the actual
 * table, ready to paste. The declared defaults are also validated against the declaration (a default outside its own
 * bounds, or not among its allowed values, is the provider's bug and fails here, not at a tenant's first request).
 */
public final class RecordedOptions {

    static final String HEADER = "name | type | default | minimum | maximum | aliases";

    private RecordedOptions() {}

    public static void assertRecordedDefaults(PluginProvider<?> provider, String expectedTable) {
        assertRecordedDefaults(provider.name(), provider.configOptions(), expectedTable);
    }

    public static void assertRecordedDefaults(String provider, List<ConfigOption> declared, String expectedTable) {
        assertEquals(normalise(expectedTable), table(declared), "declared options of '" + provider + "' (actual table below is ready to paste)");
        assertDefaultsValidate(provider, declared);
    }

    /** The options as the table {@link #assertRecordedDefaults} compares, aligned for reading. */
    public static String table(List<ConfigOption> declared) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of(HEADER.split(" \\| ")));
        for (ConfigOption option : declared) {
            rows.add(List.of(option.name(), option.type().name(), cell(option.secret() ? "(secret)" : option.defaultValue()),
                    cell(option.minimum()), cell(option.maximum()), cell(String.join(",", option.aliases()))));
        }
        return render(rows);
    }

    /** Re-aligns a hand-written table so that only its cells, not its padding, are compared. */
    static String normalise(String table) {
        List<List<String>> rows = new ArrayList<>();
        for (String line : table.strip().split("\n")) {
            if (!line.isBlank()) {
                rows.add(List.of(line.split("\\|", -1)).stream().map(String::strip).toList());
            }
        }
        if (rows.isEmpty() || !String.join(" | ", rows.get(0)).equals(HEADER)) {
            rows.add(0, List.of(HEADER.split(" \\| ")));
        }
        return render(rows);
    }

    private static String render(List<List<String>> rows) {
        int[] widths = new int[rows.stream().mapToInt(List::size).max().orElse(0)];
        for (List<String> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        return rows.stream().map(row -> {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                line.append(i == 0 ? "" : " | ").append(row.get(i)).append(" ".repeat(widths[i] - row.get(i).length()));
            }
            return line.toString().stripTrailing();
        }).collect(Collectors.joining("\n"));
    }

    /** Every default, validated as if an operator had written nothing: only "is required" is not the defaults' fault. */
    static void assertDefaultsValidate(String provider, List<ConfigOption> declared) {
        try {
            PluginConfig.validate(provider, declared, Map.of());
        } catch (InvalidConfigException e) {
            List<String> wrong = e.problems().stream().filter(p -> !p.endsWith("' is required")).toList();
            if (!wrong.isEmpty()) {
                throw new AssertionError("the declared defaults of '" + provider + "' do not pass their own declaration: " + wrong, e);
            }
        }
    }

    private static String cell(String value) {
        return value == null || value.isEmpty() ? "" : value;
    }
}
