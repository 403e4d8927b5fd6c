package io.corpora.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one numeric value filters compare by, which stores translating filters reuse ({@link MetadataFilter#decimal}). */
class FilterNumbersTest {

    @Test
    void binaryFloatingPointComparesAsItsShortestDecimal() {
        assertEquals(new BigDecimal("0.1"), MetadataFilter.decimal(0.1d), "not 0.1000000000000000055511151231257827…");
        assertEquals(BigDecimal.valueOf((double) 0.1f), MetadataFilter.decimal(0.1f), "a float widens to double first");
        assertEquals(new BigDecimal("12345678901234567890123"), MetadataFilter.decimal(new BigInteger("12345678901234567890123")));
    }

    @Test
    void numbersOfDifferentTypesMatchByValue() {
        assertEquals(0, MetadataFilter.decimal(1).compareTo(MetadataFilter.decimal(1.0d)));
        assertTrue(MetadataFilter.eq("year", 2024).matches(Map.of("year", 2024.0d)));
        assertTrue(MetadataFilter.eq("year", 2024L).matches(Map.of("year", new BigDecimal("2024.00"))));
        assertFalse(MetadataFilter.eq("price", 0.1d).matches(Map.of("price", 0.1f)), "0.1f is 0.100000001490116…");
        assertTrue(MetadataFilter.fromMap(Map.of("n", Map.of("$gt", 9_007_199_254_740_992L))).matches(Map.of("n", 9_007_199_254_740_993L)),
                "longs above 2^53 still order exactly");
    }
}
