package io.corpora.server.control;

import io.corpora.control.IngestPolicy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code tenants.partitions} TEXT column. It holds the V1 form, a JSON array of partitions, for every tenant that
 * allows no URL ingest; a tenant that does is written as {@code {"partitions": [...], "ingest": {"allowedOrigins": [...],
 * "privateOrigins": [...]}}}. The ingest policy rides in this column because the control-plane schema has no column of
 * its own for it yet; a later migration can move it out without touching the domain model.
 */
final class PartitionsColumn {

    private PartitionsColumn() {}

    static String write(List<String> partitions, IngestPolicy ingest) {
        if (ingest.isEmpty()) {
            return JsonText.write(partitions);
        }
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("partitions", partitions);
        value.put("ingest", Map.of("allowedOrigins", ingest.allowedOrigins(), "privateOrigins", ingest.privateOrigins()));
        return JsonText.write(value);
    }

    static List<String> partitions(String column) {
        return isObject(column) ? strings(JsonText.objectMap(column).get("partitions")) : JsonText.stringList(column);
    }

    static IngestPolicy ingest(String column) {
        if (!isObject(column)) {
            return IngestPolicy.NONE;
        }
        Object ingest = JsonText.objectMap(column).get("ingest");
        if (!(ingest instanceof Map<?, ?> policy)) {
            return IngestPolicy.NONE;
        }
        return new IngestPolicy(strings(policy.get("allowedOrigins")), strings(policy.get("privateOrigins")));
    }

    private static boolean isObject(String column) {
        return column != null && column.strip().startsWith("{");
    }

    private static List<String> strings(Object list) {
        return list instanceof List<?> items ? items.stream().map(String::valueOf).toList() : List.of();
    }
}
