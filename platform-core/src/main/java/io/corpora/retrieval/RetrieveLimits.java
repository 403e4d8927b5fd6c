package io.corpora.retrieval;

import io.corpora.engine.CallerText;
import io.corpora.spi.FilterLimits;
import io.corpora.spi.MetadataFilter;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one retrieval may ask, checked before any plugin is called so an over-large request is the caller's 400, never
 * a store's failure: the query's length (UTF-16 characters) and terms ({@link QueryTerms}), text no store can hold
 * ({@link CallerText}, e.g. NUL), and the filter's conditions, nesting and values ({@link FilterLimits}).
 */
public record RetrieveLimits(int maxQueryChars, int maxQueryTerms, FilterLimits filter) {

    public static final RetrieveLimits DEFAULT = new RetrieveLimits(4096, 256, new FilterLimits(64, 8, 1024));

    public RetrieveLimits {
        if (maxQueryChars < 1 || maxQueryTerms < 1) {
            throw new IllegalArgumentException("query limits must be at least 1, got " + maxQueryChars + " characters, "
                    + maxQueryTerms + " terms");
        }
        Objects.requireNonNull(filter, "filter");
    }

    /** The query, when within the limits (blank queries are {@link RetrieveCommand}'s to refuse). */
    public String query(String query) {
        if (query == null) {
            return null;
        }
        if (query.length() > maxQueryChars) {
            throw new IllegalArgumentException("query is " + query.length() + " characters; at most " + maxQueryChars);
        }
        CallerText.require("the query", query);
        int terms = QueryTerms.count(query);
        if (terms > maxQueryTerms) {
            throw new IllegalArgumentException("query has " + terms + " terms; at most " + maxQueryTerms
                    + " (each run of letters and digits counts, and each CJK ideograph)");
        }
        return query;
    }

    /** A caller's filter, parsed within the limits, comparing only with text a store can hold. */
    public MetadataFilter filter(Map<String, ?> json) {
        MetadataFilter parsed = MetadataFilter.fromMap(json, filter);
        requireStorableValues(parsed);
        return parsed;
    }

    private static void requireStorableValues(MetadataFilter filter) {
        if (filter instanceof MetadataFilter.And and) {
            and.filters().forEach(RetrieveLimits::requireStorableValues);
        } else if (filter instanceof MetadataFilter.Not not) {
            requireStorableValues(not.filter());
        } else if (filter instanceof MetadataFilter.Eq eq) {
            requireStorable(eq.key(), List.of(eq.value()));
        } else if (filter instanceof MetadataFilter.AnyOf anyOf) {
            requireStorable(anyOf.key(), anyOf.values());
        } else if (filter instanceof MetadataFilter.Range range) {
            requireStorable(range.key(), java.util.Arrays.asList(range.lower(), range.upper()));
        }
    }

    private static void requireStorable(String key, List<?> values) {
        for (Object value : values) {
            if (value instanceof String s) {
                CallerText.require("the filter on '" + key + "'", s);
            }
        }
    }
}
