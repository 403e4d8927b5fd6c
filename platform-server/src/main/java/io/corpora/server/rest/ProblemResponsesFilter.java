package io.corpora.server.rest;

import java.util.Map;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;

/**
 * Documents the errors every API route shares, as RFC 9457 problem+json ({@link Problem}), so each resource only
 * declares the errors specific to it: 403 on every route, 400 where a body or query parameters are read, 404 and 409
 * on tenant data-plane routes, and 401 (MP-JWT's empty-bodied challenge, or Corpora's problem for malformed claims, documented
 * with its WWW-Authenticate header). Responses a resource declares itself are kept; any 4xx/5xx it declares
 * without content gets the Problem schema. Registered by {@code mp.openapi.filter}.
 */
public class ProblemResponsesFilter implements OASFilter {

    static final String SCHEMA = "Problem";
    private static final String REF = "#/components/schemas/" + SCHEMA;

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        if (openAPI.getComponents() == null) {
            openAPI.setComponents(OASFactory.createComponents());
        }
        Components components = openAPI.getComponents();
        if (components.getSchemas() == null || !components.getSchemas().containsKey(SCHEMA)) {
            components.addSchema(SCHEMA, problemSchema());
        }
        if (openAPI.getPaths() == null) {
            return;
        }
        openAPI.getPaths().getPathItems().forEach((path, item) -> {
            boolean admin = path.startsWith("/admin/");
            boolean dataPlane = path.startsWith("/api/v1/tenants/{tenant}");
            if (!admin && !dataPlane) {
                return;
            }
            for (Map.Entry<PathItem.HttpMethod, Operation> entry : item.getOperations().entrySet()) {
                document(path, entry.getValue(), admin);
            }
        });
    }

    private static void document(String path, Operation operation, boolean admin) {
        if (operation.getResponses() == null) {
            operation.setResponses(OASFactory.createAPIResponses());
        }
        APIResponses responses = operation.getResponses();
        if (responses.getAPIResponses() != null) {
            responses.getAPIResponses().forEach((code, response) -> {
                if ((code.startsWith("4") && !code.equals("401") || code.startsWith("5")) && response.getContent() == null) {
                    response.setContent(problemContent());
                }
            });
        }
        boolean readsInput = operation.getRequestBody() != null || (operation.getParameters() != null
                && operation.getParameters().stream().anyMatch(p -> p.getIn() == Parameter.In.QUERY));
        if (readsInput) {
            add(responses, "400", "Invalid request: a malformed body or an out-of-range parameter; the detail names it");
        }
        if (!responses.hasAPIResponse("401")) {
            // Refused by MP-JWT before the application runs (an empty body), or by Corpora for malformed claims (problem+json).
            responses.addAPIResponse("401", OASFactory.createAPIResponse()
                    .description("No valid bearer token: missing, expired, or not signed by the configured issuer (empty body, from"
                            + " MP-JWT); or a verified token whose tenant, partition, groups or acl_groups claim has the wrong JSON type"
                            + " or an invalid value (problem+json invalid-token-claims, naming the claim)")
                    .content(problemContent())
                    .addHeader("WWW-Authenticate", OASFactory.createHeader().description("Bearer realm=\"MP-JWT\", error=\"invalid_token\"")
                            .schema(OASFactory.createSchema().type(Schema.SchemaType.STRING))));
        }
        add(responses, "403", admin ? "The token lacks the platform-admin role"
                : "The token's tenant claim is not the path's tenant, it lacks the needed role, or it is bound to another partition");
        if (!admin) {
            add(responses, "404", path.contains("{id}") ? "The tenant, or the document or job with this id, does not exist"
                    : "The tenant does not exist");
            add(responses, "409", "The tenant is not ACTIVE (INACTIVE, OFFLOADED or being deleted)");
            add503(responses);
        }
    }

    private static void add(APIResponses responses, String code, String description) {
        if (responses.hasAPIResponse(code)) {
            return;
        }
        APIResponse response = OASFactory.createAPIResponse().description(description).content(problemContent());
        responses.addAPIResponse(code, response);
    }

    /** Data-plane routes call the tenant's store and embedder through the fault-tolerance guard. */
    private static void add503(APIResponses responses) {
        if (responses.hasAPIResponse("503")) {
            return;
        }
        responses.addAPIResponse("503", OASFactory.createAPIResponse()
                .description("A plugin the route needs (store, embedder) timed out, kept failing, or its circuit breaker is open or"
                        + " its bulkhead full for this tenant; or one of the tenant's plugins could not be started on this server"
                        + " (plugin-unavailable, with an incident for the operator); retry after Retry-After seconds")
                .content(problemContent())
                .addHeader("Retry-After", OASFactory.createHeader().description("Seconds until the call may succeed (e.g. the breaker half-opens)")
                        .schema(OASFactory.createSchema().type(Schema.SchemaType.INTEGER))));
    }

    private static Content problemContent() {
        return OASFactory.createContent().addMediaType(Problem.MEDIA_TYPE,
                OASFactory.createMediaType().schema(OASFactory.createSchema().ref(REF)));
    }

    private static Schema problemSchema() {
        return OASFactory.createSchema()
                .type(Schema.SchemaType.OBJECT)
                .description("An RFC 9457 problem detail; some problems add members such as errors (validation problems) or documentId.")
                .addProperty("type", OASFactory.createSchema().type(Schema.SchemaType.STRING).format("uri")
                        .description("Stable URI of the kind of problem, e.g. https://corpora.dev/problems/tenant-not-found"))
                .addProperty("title", OASFactory.createSchema().type(Schema.SchemaType.STRING).description("Short summary of the kind of problem"))
                .addProperty("status", OASFactory.createSchema().type(Schema.SchemaType.INTEGER).format("int32").description("The HTTP status"))
                .addProperty("detail", OASFactory.createSchema().type(Schema.SchemaType.STRING).description("What went wrong in this request"))
                .addProperty("requestId", OASFactory.createSchema().type(Schema.SchemaType.STRING)
                        .description("The request's id (the caller's X-Request-Id, or generated), also in the X-Request-Id response header and the server log"))
                .addRequired("type").addRequired("title").addRequired("status")
                .additionalPropertiesBoolean(Boolean.TRUE)
                .example(Map.of("type", "https://corpora.dev/problems/tenant-not-found", "title", "Tenant not found", "status", 404,
                        "detail", "tenant 'acme' does not exist"));
    }
}
