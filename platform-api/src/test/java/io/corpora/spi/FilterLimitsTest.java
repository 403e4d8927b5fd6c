package io.corpora.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class FilterLimitsTest {

    private static final FilterLimits LIMITS = new FilterLimits(10, 3, 10);

    private static String refused(Map<String, ?> json) {
        return assertThrows(IllegalArgumentException.class, () -> MetadataFilter.fromMap(json, LIMITS)).getMessage();
    }

    /** {@code {"$not": {"$not": … {"a": 1}}}}, {@code levels} deep. */
    private static Map<String, Object> nots(int levels) {
        Map<String, Object> filter = Map.of("a", 1);
        for (int i = 0; i < levels; i++) {
            filter = Map.of("$not", filter);
        }
        return filter;
    }

    @Test
    void aFilterWithinTheLimitsParsesAsWithoutThem() {
        Map<String, Object> json = Map.of("$and", List.of(Map.of("team", List.of("a", "b")), Map.of("$not", Map.of("year", Map.of("$lt", 2020)))));
        assertEquals(MetadataFilter.fromMap(json), MetadataFilter.fromMap(json, LIMITS));
    }

    @Test
    void nestingIsRefusedBeforeItIsDescendedInto() {
        MetadataFilter.fromMap(nots(2), LIMITS);
        assertTrue(refused(nots(3)).contains("nests deeper than 3 levels"));
        assertTrue(refused(Map.of("a", Map.of("$not", Map.of("$not", Map.of("$not", 1))))).contains("nests deeper than 3"));
        // A nesting no recursive parser could descend: refused at the limit, not by a StackOverflowError.
        assertTrue(assertThrows(IllegalArgumentException.class, () -> MetadataFilter.fromMap(nots(100_000), LIMITS)).getMessage()
                .contains("nests deeper"));
    }

    @Test
    void conditionsAndOperatorsAreCounted() {
        // the filter, $and, and per item its object and its condition: 2 + 2 × 4 = 10 nodes, then 12
        List<Object> four = new ArrayList<>(IntStream.range(0, 4).mapToObj(i -> (Object) Map.of("k" + i, i)).toList());
        MetadataFilter.fromMap(Map.of("$and", four), LIMITS);
        four.add(Map.of("k4", 4));
        assertTrue(refused(Map.of("$and", four)).contains("more than 10 conditions and operators"));
        List<Object> empties = new ArrayList<>(IntStream.range(0, 9).mapToObj(i -> (Object) Map.of()).toList());
        assertTrue(refused(Map.of("$and", empties)).contains("more than 10"), "empty filter objects count too");
    }

    @Test
    void valuesAreCountedPerListAndInAll() {
        List<Integer> eleven = IntStream.range(0, 11).boxed().toList();
        assertTrue(refused(Map.of("k", Map.of("$in", eleven))).contains("'k' lists 11 values; at most 10"));
        assertTrue(refused(Map.of("k", eleven)).contains("'k' lists 11 values"));
        assertTrue(refused(Map.of("$and", List.of(Map.of("a", List.of(1, 2, 3, 4, 5, 6)), Map.of("b", List.of(1, 2, 3, 4, 5)))))
                .contains("more than 10 values in all"));
    }
}
