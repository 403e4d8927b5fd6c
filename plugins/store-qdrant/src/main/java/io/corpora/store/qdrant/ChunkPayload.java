package io.corpora.store.qdrant;

import io.corpora.spi.Chunk;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.qdrant.client.ValueFactory;
import io.qdrant.client.grpc.JsonWithInt.ListValue;
import io.qdrant.client.grpc.JsonWithInt.Struct;
import io.qdrant.client.grpc.JsonWithInt.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a chunk is laid out in a Qdrant point's payload. The store's own fields sit at the top level; the chunk's metadata
 * is one nested object, {@code meta}, addressed in filters as {@code meta."key"} (Qdrant's quoted path segment, since
 * metadata keys may contain dots), with the list of its keys in {@code meta_keys} so "key present" is one keyword match.
 * Values keep their JSON type: strings, booleans, integers (int64), doubles, and lists of those.
 */
final class ChunkPayload {

    static final String TENANT = "tenant";
    static final String PARTITION = "partition";
    static final String CHUNK_ID = "chunk_id";
    static final String DOCUMENT_ID = "document_id";
    static final String CHUNK_INDEX = "chunk_index";
    static final String EMBEDDER = "embedder";
    static final String TEXT = "text";
    static final String HEADINGS = "headings";
    static final String META = "meta";
    static final String META_KEYS = "meta_keys";

    /** The named vectors of a point: the indexed one, the exact original (cosine collections), the BM25 weights. */
    static final String DENSE_VECTOR = "dense";
    static final String RAW_VECTOR = "raw";
    static final String SPARSE_VECTOR = "bm25";

    private ChunkPayload() {}

    /** The filter path of a metadata key: always quoted, which Qdrant's path grammar accepts for any key without quotes. */
    static String metadataPath(String key) {
        return META + ".\"" + key + "\"";
    }

    static Map<String, Value> encode(Namespace namespace, Chunk chunk) {
        Map<String, Value> payload = new LinkedHashMap<>();
        payload.put(TENANT, ValueFactory.value(namespace.tenant()));
        payload.put(PARTITION, ValueFactory.value(namespace.partitionKey()));
        payload.put(CHUNK_ID, ValueFactory.value(chunk.id()));
        payload.put(DOCUMENT_ID, ValueFactory.value(chunk.documentId()));
        payload.put(CHUNK_INDEX, ValueFactory.value(chunk.index()));
        if (chunk.metadata().get(ReservedKeys.EMBEDDER) instanceof String embedder) {
            payload.put(EMBEDDER, ValueFactory.value(embedder));
        }
        payload.put(TEXT, ValueFactory.value(chunk.text()));
        payload.put(HEADINGS, ValueFactory.list(chunk.headingPath().stream().map(ValueFactory::value).toList()));
        Map<String, Value> meta = new LinkedHashMap<>();
        chunk.metadata().forEach((key, value) -> meta.put(key, encodeValue(value)));
        payload.put(META, ValueFactory.value(meta));
        payload.put(META_KEYS, ValueFactory.list(chunk.metadata().keySet().stream().map(ValueFactory::value).toList()));
        return payload;
    }

    static Chunk decode(Map<String, Value> payload) {
        List<String> headings = new ArrayList<>();
        for (Value heading : field(payload, HEADINGS).getListValue().getValuesList()) {
            headings.add(heading.getStringValue());
        }
        return new Chunk(field(payload, CHUNK_ID).getStringValue(), field(payload, DOCUMENT_ID).getStringValue(),
                (int) field(payload, CHUNK_INDEX).getIntegerValue(), field(payload, TEXT).getStringValue(), headings,
                metadata(payload));
    }

    /** The metadata alone (what a client-side filter check reads), in the order it was written. */
    static Map<String, Object> metadata(Map<String, Value> payload) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        Value meta = payload.get(META);
        Value keys = payload.get(META_KEYS);
        if (meta == null || keys == null) {
            return metadata;
        }
        Map<String, Value> fields = meta.getStructValue().getFieldsMap();
        for (Value key : keys.getListValue().getValuesList()) {
            Value value = fields.get(key.getStringValue());
            if (value != null) {
                metadata.put(key.getStringValue(), decodeValue(value));
            }
        }
        return metadata;
    }

    static String chunkId(Map<String, Value> payload) {
        return field(payload, CHUNK_ID).getStringValue();
    }

    private static Value field(Map<String, Value> payload, String name) {
        Value value = payload.get(name);
        if (value == null) {
            throw new IllegalStateException("a Qdrant point without '" + name + "' in its payload: it was not written by this store");
        }
        return value;
    }

    static Value encodeValue(Object value) {
        if (value instanceof List<?> list) {
            List<Value> items = new ArrayList<>(list.size());
            for (Object item : list) {
                items.add(encodeValue(item));
            }
            return ValueFactory.list(items);
        }
        if (value instanceof String s) {
            return ValueFactory.value(s);
        }
        if (value instanceof Boolean b) {
            return ValueFactory.value(b);
        }
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return ValueFactory.value(((Number) value).longValue());
        }
        if (value instanceof Float f) {
            return ValueFactory.value(Double.parseDouble(Float.toString(f))); // the decimal written, not its binary widening
        }
        if (value instanceof BigInteger big) {
            return big.bitLength() < 64 ? ValueFactory.value(big.longValue()) : ValueFactory.value(big.doubleValue());
        }
        if (value instanceof BigDecimal decimal) {
            try {
                return ValueFactory.value(decimal.longValueExact());
            } catch (ArithmeticException notIntegral) {
                return ValueFactory.value(decimal.doubleValue());
            }
        }
        if (value instanceof Number n) {
            return ValueFactory.value(n.doubleValue());
        }
        throw new IllegalArgumentException("metadata value of type " + (value == null ? "null" : value.getClass().getSimpleName())
                + " cannot be stored");
    }

    static Object decodeValue(Value value) {
        return switch (value.getKindCase()) {
            case STRING_VALUE -> value.getStringValue();
            case INTEGER_VALUE -> value.getIntegerValue();
            case DOUBLE_VALUE -> value.getDoubleValue();
            case BOOL_VALUE -> value.getBoolValue();
            case LIST_VALUE -> decodeList(value.getListValue());
            case STRUCT_VALUE -> decodeStruct(value.getStructValue());
            case NULL_VALUE, KIND_NOT_SET -> null;
        };
    }

    private static List<Object> decodeList(ListValue list) {
        List<Object> items = new ArrayList<>(list.getValuesCount());
        for (Value item : list.getValuesList()) {
            items.add(decodeValue(item));
        }
        return items;
    }

    private static Map<String, Object> decodeStruct(Struct struct) {
        Map<String, Object> map = new LinkedHashMap<>();
        struct.getFieldsMap().forEach((k, v) -> map.put(k, decodeValue(v)));
        return map;
    }
}
