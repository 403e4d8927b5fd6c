package io.corpora.security;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.corpora.spi.Identifiers;
import io.corpora.spi.Namespace;
import java.io.IOException;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads Corpora's claims from the payload of a token whose signature the server already verified, and fails closed:
 * a claim that is present must have its expected JSON type, or the whole token is refused
 * ({@link InvalidClaimException}). A present claim is never read as absent, because absence widens access (a token
 * without {@value TokenClaims#PARTITION} may use every partition of its tenant).
 *
 * <ul>
 *   <li>{@value TokenClaims#TENANT} and {@value TokenClaims#PARTITION}: a string that is a valid namespace id
 *       ({@link Identifiers#NAMESPACE_ID}; a partition may also be {@value Namespace#DEFAULT_PARTITION}).</li>
 *   <li>{@value TokenClaims#GROUPS} and {@value TokenClaims#ACL_GROUPS}: an array of non-blank strings. An empty array
 *       is accepted: it grants nothing (an identity provider's group mapper emits {@code []} for a user without groups).
 *       A single string is refused, although Liberty's mpJwt-2.1 maps {@code "groups": "reader"} to the role
 *       {@code reader}: MicroProfile JWT defines {@code groups} as an array, one shape per claim keeps every reader of
 *       the token in agreement, and an identity provider sending a string has a single-valued mapper (Keycloak:
 *       switch its "Multivalued" on). Liberty itself rejects a {@code groups} array holding a non-string (401, before
 *       Corpora sees the request) and gives no role for any other shape, which Corpora refuses instead of reading as
 *       "no roles".</li>
 *   <li>JSON {@code null} is a present claim of the wrong type.</li>
 * </ul>
 * A payload holding one claim name twice is refused as a whole: readers that keep the first and the last would disagree.
 */
public final class ClaimReader {

    private static final ObjectMapper JSON = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {};

    private ClaimReader() {}

    /** The claims of a payload as JSON-decoded (strings, numbers, booleans, {@link List}s, {@link Map}s, null). */
    public static CallerClaims read(Map<String, ?> payload) {
        return new CallerClaims(namespaceId(payload, TokenClaims.TENANT, false), namespaceId(payload, TokenClaims.PARTITION, true),
                strings(payload, TokenClaims.GROUPS), strings(payload, TokenClaims.ACL_GROUPS));
    }

    /**
     * The claims of a compact JWS ({@code header.payload.signature}) that the server verified. An encrypted token (JWE)
     * is not a JWS and is refused; Corpora configures no token decryption.
     */
    public static CallerClaims readCompact(String compactJws) {
        return read(payload(compactJws));
    }

    static Map<String, Object> payload(String compactJws) {
        String[] parts = compactJws == null ? new String[0] : compactJws.split("\\.", -1);
        if (parts.length != 3) {
            throw new InvalidClaimException(null, "the token is not a compact JWS (header.payload.signature)");
        }
        try {
            Map<String, Object> payload = JSON.readValue(Base64.getUrlDecoder().decode(parts[1]), OBJECT);
            if (payload == null) {
                throw new InvalidClaimException(null, "the token's payload is not a JSON object");
            }
            return payload;
        } catch (JsonProcessingException e) {
            // The original message names the problem (e.g. Duplicate field 'partition') without quoting the payload.
            throw new InvalidClaimException(null, "the token's payload is not a JSON object with distinct claim names: " + e.getOriginalMessage());
        } catch (IOException | IllegalArgumentException e) {
            throw new InvalidClaimException(null, "the token's payload is not base64url-encoded JSON");
        }
    }

    private static String namespaceId(Map<String, ?> payload, String name, boolean partition) {
        if (!payload.containsKey(name)) {
            return null;
        }
        Object value = payload.get(name);
        if (!(value instanceof String id)) {
            throw new InvalidClaimException(name, "the '" + name + "' claim must be a string, got " + describe(value));
        }
        boolean valid = Identifiers.NAMESPACE_ID.matcher(id).matches() || partition && Namespace.DEFAULT_PARTITION.equals(id);
        if (!valid) {
            throw new InvalidClaimException(name, "the '" + name + "' claim must be a string matching " + Identifiers.NAMESPACE_ID.pattern()
                    + (partition ? " (or " + Namespace.DEFAULT_PARTITION + ")" : "") + ", got " + describe(value));
        }
        return id;
    }

    private static Set<String> strings(Map<String, ?> payload, String name) {
        if (!payload.containsKey(name)) {
            return Set.of();
        }
        Object value = payload.get(name);
        if (!(value instanceof List<?> list)) {
            throw new InvalidClaimException(name, "the '" + name + "' claim must be an array of strings, got " + describe(value));
        }
        Set<String> values = new LinkedHashSet<>();
        for (int i = 0; i < list.size(); i++) {
            Object item = list.get(i);
            if (!(item instanceof String s) || s.isBlank()) {
                throw new InvalidClaimException(name, "the '" + name + "' claim must be an array of non-blank strings; item " + i + " is "
                        + describe(item));
            }
            values.add(s);
        }
        return values;
    }

    /** The JSON type of a value, with the value itself when it is short: never more of the token than that. */
    private static String describe(Object value) {
        if (value == null) {
            return "null";
        }
        String type = value instanceof String ? "string" : value instanceof Number ? "number" : value instanceof Boolean ? "boolean"
                : value instanceof List ? "array" : value instanceof Map ? "object" : value.getClass().getSimpleName();
        if (value instanceof String s) {
            return s.isEmpty() ? "an empty string" : s.isBlank() ? "a blank string" : "the string \"" + abbreviate(s) + "\"";
        }
        return "a JSON " + type + (value instanceof List || value instanceof Map ? "" : " (" + abbreviate(String.valueOf(value)) + ")");
    }

    private static String abbreviate(String s) {
        String shown = s.length() > 64 ? s.substring(0, 64) + "…" : s;
        StringBuilder safe = new StringBuilder(shown.length());
        shown.codePoints().forEach(c -> safe.append(Character.isISOControl(c) ? "?" : Character.toString(c)));
        return safe.toString().replace("\"", "\\\"");
    }
}
