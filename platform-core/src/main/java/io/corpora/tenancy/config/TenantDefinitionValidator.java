package io.corpora.tenancy.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.controlplane.Origin;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Validates a tenant document against {@code tenant.schema.json} and the rules a schema cannot say: secrets are
 * {@code ${config:key}} references, never literals. Every problem names the file, the field's JSON pointer and the reason.
 */
public final class TenantDefinitionValidator {

    /** Where the WAR (and the test class path) carries the schema: tenants-config/ is copied there by the build. */
    public static final String SCHEMA_RESOURCE = "tenants-config/tenant.schema.json";
    public static final String SCHEMA_FILE_NAME = "tenant.schema.json";

    private static final String[] PLUGIN_FIELDS = {"/store", "/embedder", "/reranker", "/generator", "/access/filterHook"};

    private static final String[] ORIGIN_LISTS = {"/ingest/allowedOrigins", "/ingest/privateOrigins"};

    private static final Pattern LOCATION_PREFIX = Pattern.compile("^(?:/[^ ]*|\\$[^ ]*)?: ");

    private final JsonSchema schema;

    private TenantDefinitionValidator(JsonSchema schema) {
        this.schema = schema;
    }

    /** The schema packaged on the class path. */
    public static TenantDefinitionValidator packaged() {
        try (InputStream in = TenantDefinitionValidator.class.getClassLoader().getResourceAsStream(SCHEMA_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("tenant schema " + SCHEMA_RESOURCE + " is missing from the class path");
            }
            return fromSchema(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + SCHEMA_RESOURCE, e);
        }
    }

    public static TenantDefinitionValidator fromSchema(InputStream schemaJson) throws IOException {
        JsonNode schemaNode = Json.MAPPER.readTree(schemaJson);
        SchemaValidatorsConfig config = SchemaValidatorsConfig.builder().pathType(PathType.JSON_POINTER).build();
        return new TenantDefinitionValidator(JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(schemaNode, config));
    }

    /** Every problem of the document, in pointer order; empty when it is valid. */
    public List<TenantFileProblem> validate(String file, JsonNode document) {
        List<TenantFileProblem> problems = new ArrayList<>();
        if (document == null || !document.isObject()) {
            problems.add(new TenantFileProblem(file, "", "a tenant must be a JSON/YAML object, got " + describe(document)));
            return problems;
        }
        Set<ValidationMessage> messages = schema.validate(document);
        for (ValidationMessage message : messages) {
            problems.add(new TenantFileProblem(file, pointerOf(message), reasonOf(message)));
        }
        for (String field : PLUGIN_FIELDS) {
            JsonNode options = document.at(field + "/config");
            if (options.isObject()) {
                options.fields().forEachRemaining(e -> checkSecret(file, field + "/config/" + escape(e.getKey()), e.getKey(), e.getValue(), problems));
            }
        }
        for (String list : ORIGIN_LISTS) {
            JsonNode origins = document.at(list);
            for (int i = 0; i < origins.size(); i++) {
                checkOrigin(file, list + "/" + i, origins.get(i), problems);
            }
        }
        problems.sort(Comparator.comparing(TenantFileProblem::pointer).thenComparing(TenantFileProblem::reason));
        return dedupe(problems);
    }

    /** The definition, or {@link InvalidTenantDefinitionException} with every problem. */
    public TenantDefinition parse(String file, JsonNode document) {
        List<TenantFileProblem> problems = validate(file, document);
        if (!problems.isEmpty()) {
            throw new InvalidTenantDefinitionException(problems);
        }
        try {
            return TenantDefinitionCodec.fromJson(document);
        } catch (IllegalArgumentException | NullPointerException e) {
            // The schema should have caught it; keep the message attributable all the same.
            throw new InvalidTenantDefinitionException(List.of(new TenantFileProblem(file, "", String.valueOf(e.getMessage()))));
        }
    }

    private static void checkSecret(String file, String pointer, String option, JsonNode value, List<TenantFileProblem> problems) {
        if (!value.isValueNode() && !value.isArray()) {
            return;
        }
        String text = TenantDefinitionCodec.optionValue(value);
        if (SecretOptions.isMalformedReference(text)) {
            problems.add(new TenantFileProblem(file, pointer,
                    "malformed configuration reference '" + text + "': write exactly ${config:some.key}"));
        } else if (SecretOptions.looksSecret(option) && !SecretOptions.isReference(text)) {
            problems.add(new TenantFileProblem(file, pointer, "option '" + option
                    + "' holds a secret and must be a MicroProfile Config reference such as ${config:some.key}, not a literal value"));
        }
    }

    /** What the schema's pattern cannot say about an origin (e.g. a port over 65535). */
    private static void checkOrigin(String file, String pointer, JsonNode value, List<TenantFileProblem> problems) {
        if (!value.isTextual()) {
            return; // the schema reports the type
        }
        try {
            Origin.parse(value.asText());
        } catch (IllegalArgumentException e) {
            problems.add(new TenantFileProblem(file, pointer, e.getMessage()));
        }
    }

    private static String pointerOf(ValidationMessage message) {
        String location = message.getInstanceLocation() == null ? "" : message.getInstanceLocation().toString();
        if ("/".equals(location)) {
            location = "";
        }
        String property = message.getProperty();
        // required / additionalProperties / propertyNames are reported on the parent object: point at the field itself.
        if (property != null && !property.isEmpty() && !location.endsWith("/" + escape(property))) {
            location = location + "/" + escape(property);
        }
        return location;
    }

    private static String reasonOf(ValidationMessage message) {
        // The library prefixes its message with the instance location ("/store: ..."); the pointer is reported apart.
        String text = LOCATION_PREFIX.matcher(message.getMessage()).replaceFirst("");
        return switch (message.getType()) {
            case "additionalProperties" -> "unknown field '" + message.getProperty() + "' (see tenant.schema.json for the allowed fields)";
            case "required" -> "missing required field '" + message.getProperty() + "'";
            default -> text;
        };
    }

    private static List<TenantFileProblem> dedupe(List<TenantFileProblem> problems) {
        return problems.stream().distinct().toList();
    }

    private static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }

    private static String describe(JsonNode node) {
        return node == null || node.isMissingNode() ? "an empty document" : node.getNodeType().name().toLowerCase(Locale.ROOT);
    }
}
