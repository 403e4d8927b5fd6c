package io.corpora.store.pgvector;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code jsonb} text of chunk metadata, by Jackson. Metadata is an object of scalars and lists of scalars (the SPI's
 * {@link io.corpora.spi.Metadata} rules, checked when the chunk was made); numbers come back as Integer or Long when
 * integral and in range, else Double, so integers and decimals written by Java round-trip to equal values.
 */
final class MetadataJson {

    private static final TypeReference<LinkedHashMap<String, Object>> OBJECT = new TypeReference<>() {};
    /** Thread-safe once configured; one per plugin class loader. */
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private MetadataJson() {}

    static String write(Map<String, ?> metadata) {
        try {
            return MAPPER.writeValueAsString(metadata);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("metadata cannot be written as JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Reads stored metadata; a row that is not a JSON object is the database's corruption, not the caller's error. */
    static Map<String, Object> read(String json) {
        if (json == null || json.isBlank()) {
            return Map.of();
        }
        try {
            Map<String, Object> map = MAPPER.readValue(json, OBJECT);
            map.replaceAll((key, value) -> withoutBigIntegers(value));
            return map;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored metadata is not a JSON object: " + abbreviate(json), e);
        }
    }

    /** An integer beyond Long is read as the Double it is closest to (as the store always answered). */
    private static Object withoutBigIntegers(Object value) {
        if (value instanceof BigInteger big) {
            return big.doubleValue();
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            list.forEach(item -> out.add(withoutBigIntegers(item)));
            return out;
        }
        return value;
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "…";
    }
}
