package io.corpora.server.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** JSON text columns (plugin configs, partitions, metadata, audit details): written with sorted keys so equal values compare equal. */
final class JsonText {

    private static final ObjectMapper MAPPER = new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);
    private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() {};
    private static final TypeReference<Map<String, Object>> OBJECT_MAP = new TypeReference<>() {};
    private static final TypeReference<List<String>> STRING_LIST = new TypeReference<>() {};

    private JsonText() {}

    static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value instanceof Map<?, ?> map ? new TreeMap<>(map) : value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("value cannot be written as JSON: " + e.getOriginalMessage(), e);
        }
    }

    static Map<String, String> stringMap(String json) {
        return json == null ? null : read(json, STRING_MAP);
    }

    static Map<String, Object> objectMap(String json) {
        return json == null ? Map.of() : read(json, OBJECT_MAP);
    }

    static List<String> stringList(String json) {
        return json == null ? List.of() : read(json, STRING_LIST);
    }

    private static <T> T read(String json, TypeReference<T> type) {
        try {
            return MAPPER.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("corrupt JSON column: " + e.getOriginalMessage(), e);
        }
    }
}
