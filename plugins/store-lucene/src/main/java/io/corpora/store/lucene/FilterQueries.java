package io.corpora.store.lucene;

import io.corpora.spi.MetadataFilter;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TermRangeQuery;
import org.apache.lucene.util.BytesRef;

/**
 * Compiles a {@link MetadataFilter} into a Lucene {@link Query} with the exact semantics of
 * {@link MetadataFilter#matches}. Keys and values only ever become field names and terms of query objects:
 * nothing is parsed, so no key or value can change the query's structure.
 */
final class FilterQueries {

    private FilterQueries() {}

    static Query compile(MetadataFilter filter) {
        if (filter instanceof MetadataFilter.Eq eq) {
            return equalsAny(eq.key(), List.of(eq.value()));
        }
        if (filter instanceof MetadataFilter.AnyOf anyOf) {
            return anyOf.values().isEmpty() ? new MatchNoDocsQuery("empty anyOf on '" + anyOf.key() + "'") : equalsAny(anyOf.key(), anyOf.values());
        }
        if (filter instanceof MetadataFilter.Exists exists) {
            return new TermQuery(new Term(ChunkDocuments.KEYS, exists.key()));
        }
        if (filter instanceof MetadataFilter.Not not) {
            return new BooleanQuery.Builder()
                    .add(new MatchAllDocsQuery(), Occur.FILTER)
                    .add(compile(not.filter()), Occur.MUST_NOT)
                    .build();
        }
        if (filter instanceof MetadataFilter.Range range) {
            return range.isNumeric() ? numericRange(range) : stringRange(range);
        }
        if (filter instanceof MetadataFilter.And and) {
            if (and.filters().isEmpty()) {
                return new MatchAllDocsQuery();
            }
            BooleanQuery.Builder all = new BooleanQuery.Builder();
            and.filters().forEach(part -> all.add(compile(part), Occur.FILTER));
            return all.build();
        }
        throw new IllegalArgumentException("unsupported filter node " + filter.getClass().getSimpleName());
    }

    /** The field (or any element of it) equals one of the values; strings, numbers and booleans never equal each other. */
    private static Query equalsAny(String key, List<Object> values) {
        List<BytesRef> strings = new ArrayList<>();
        List<BytesRef> booleans = new ArrayList<>();
        List<Double> numbers = new ArrayList<>();
        for (Object value : values) {
            if (value instanceof String s) {
                strings.add(new BytesRef(s));
            } else if (value instanceof Boolean b) {
                booleans.add(new BytesRef(b.toString()));
            } else {
                numbers.add(((Number) value).doubleValue());
            }
        }
        List<Query> parts = new ArrayList<>();
        if (!strings.isEmpty()) {
            parts.add(new TermInSetQuery(ChunkDocuments.STRING_PREFIX + key, strings));
        }
        if (!booleans.isEmpty()) {
            parts.add(new TermInSetQuery(ChunkDocuments.BOOLEAN_PREFIX + key, booleans));
        }
        if (!numbers.isEmpty()) {
            parts.add(DoublePoint.newSetQuery(ChunkDocuments.NUMBER_PREFIX + key, numbers.stream().mapToDouble(Double::doubleValue).toArray()));
        }
        if (parts.size() == 1) {
            return parts.get(0);
        }
        BooleanQuery.Builder any = new BooleanQuery.Builder();
        parts.forEach(part -> any.add(part, Occur.SHOULD));
        return any.build();
    }

    private static Query numericRange(MetadataFilter.Range range) {
        double lower = Double.NEGATIVE_INFINITY;
        double upper = Double.POSITIVE_INFINITY;
        if (range.lower() != null) {
            double bound = ((Number) range.lower()).doubleValue();
            lower = range.lowerInclusive() ? bound : Math.nextUp(bound);
        }
        if (range.upper() != null) {
            double bound = ((Number) range.upper()).doubleValue();
            upper = range.upperInclusive() ? bound : Math.nextDown(bound);
        }
        return DoublePoint.newRangeQuery(ChunkDocuments.NUMBER_PREFIX + range.key(), lower, upper);
    }

    /** Terms order by UTF-8 bytes, which equals String order for every string without supplementary characters. */
    private static Query stringRange(MetadataFilter.Range range) {
        return TermRangeQuery.newStringRange(ChunkDocuments.STRING_PREFIX + range.key(),
                (String) range.lower(), (String) range.upper(), range.lowerInclusive(), range.upperInclusive());
    }
}
