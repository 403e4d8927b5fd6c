package io.corpora.store.pgvector;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * Table and column names that may be spliced into SQL. Values are always bound; identifiers cannot be,
 * so they are held to a strict shape that needs no quoting: lower-case ASCII letters, digits and
 * underscores, starting with a letter or underscore, at most 63 bytes (PostgreSQL's NAMEDATALEN - 1).
 */
final class SqlIdentifier {

    static final Pattern PLAIN = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    /** PostgreSQL's reserved key words (SQL Key Words appendix): valid in shape but not as bare names. */
    private static final Set<String> RESERVED = Set.of("all", "analyse", "analyze", "and", "any", "array", "as", "asc",
            "asymmetric", "authorization", "binary", "both", "case", "cast", "check", "collate", "collation", "column",
            "concurrently", "constraint", "create", "cross", "current_catalog", "current_date", "current_role",
            "current_schema", "current_time", "current_timestamp", "current_user", "default", "deferrable", "desc",
            "distinct", "do", "else", "end", "except", "false", "fetch", "for", "foreign", "freeze", "from", "full",
            "grant", "group", "having", "ilike", "in", "initially", "inner", "intersect", "into", "is", "isnull", "join",
            "lateral", "leading", "left", "like", "limit", "localtime", "localtimestamp", "natural", "not", "notnull",
            "null", "offset", "on", "only", "or", "order", "outer", "overlaps", "placing", "primary", "references",
            "returning", "right", "select", "session_user", "similar", "some", "symmetric", "system_user", "table",
            "tablesample", "then", "to", "trailing", "true", "union", "unique", "user", "using", "variadic", "verbose",
            "when", "where", "window", "with");

    private SqlIdentifier() {}

    /** Returns the name when it is a plain identifier; otherwise throws, naming what it was for. */
    static String require(String what, String name) {
        if (name == null || !PLAIN.matcher(name).matches()) {
            throw new IllegalArgumentException(what + " must match " + PLAIN.pattern() + " (no quotes, spaces or punctuation), got: "
                    + (name == null ? "null" : '"' + name.replace("\"", "\\\"") + '"'));
        }
        if (RESERVED.contains(name)) {
            throw new IllegalArgumentException(what + " '" + name + "' is a reserved SQL key word");
        }
        return name;
    }

    /** A table name, optionally schema-qualified ({@code schema.table}), each part a plain identifier. */
    static String requireTable(String name) {
        if (name == null) {
            return require("table", null);
        }
        String[] parts = name.split("\\.", -1);
        if (parts.length > 2) {
            throw new IllegalArgumentException("table must be 'name' or 'schema.name', got: \"" + name.replace("\"", "\\\"") + '"');
        }
        for (String part : parts) {
            require("table", part);
        }
        return name;
    }
}
