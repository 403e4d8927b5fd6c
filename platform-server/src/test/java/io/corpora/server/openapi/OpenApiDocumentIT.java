package io.corpora.server.openapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.server.DeployedServer;
import io.corpora.server.ServerClient;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI document the running server generates ({@code GET /openapi}) is valid for a maintained parser
 * (swagger-parser, OpenAPI 3.x), lists every data-plane and admin route, puts each behind the JWT bearer scheme and
 * documents its errors (at least 401 and 403; 404 and 409 on tenant routes) as problem+json with the shared Problem
 * schema (401 excepted: MP-JWT answers it with an empty body and a WWW-Authenticate challenge); Swagger UI is
 * served next to it. The document is kept as {@code target/openapi/openapi.yaml}.
 */
class OpenApiDocumentIT extends DeployedServer {

    /** Every route of the data plane and the admin API, as "METHOD path" in the document's path syntax. */
    static final List<String> ROUTES = List.of(
            "POST /api/v1/tenants/{tenant}/retrieve",
            "POST /api/v1/tenants/{tenant}/ask",
            "POST /api/v1/tenants/{tenant}/evaluations", "GET /api/v1/tenants/{tenant}/evaluations",
            "GET /api/v1/tenants/{tenant}/evaluations/{id}", "POST /api/v1/tenants/{tenant}/evaluations/{id}:apply",
            "POST /api/v1/tenants/{tenant}/documents",
            "GET /api/v1/tenants/{tenant}/documents",
            "GET /api/v1/tenants/{tenant}/documents/{id}",
            "DELETE /api/v1/tenants/{tenant}/documents/{id}",
            "GET /api/v1/tenants/{tenant}/documents/{id}/chunks",
            "GET /api/v1/tenants/{tenant}/document",
            "DELETE /api/v1/tenants/{tenant}/document",
            "GET /api/v1/tenants/{tenant}/document/chunks",
            "GET /api/v1/tenants/{tenant}/jobs",
            "GET /api/v1/tenants/{tenant}/jobs/{id}",
            "GET /api/v1/tenants/{tenant}/index:verify",
            "POST /api/v1/tenants/{tenant}/index:rebuild",
            "GET /admin/v1/tenants",
            "POST /admin/v1/tenants",
            "GET /admin/v1/tenants/{id}",
            "PUT /admin/v1/tenants/{id}",
            "DELETE /admin/v1/tenants/{id}",
            "POST /admin/v1/tenants/{id}/state",
            "POST /admin/v1/tenants/{id}:purge",
            "POST /admin/v1/tenants/{id}/embedder:migrate",
            "POST /admin/v1/tenants/{id}/store:relocate",
            "GET /admin/v1/tenants/{id}/jobs/{job}",
            "POST /admin/v1/tenants:sync",
            "GET /admin/v1/audit",
            "GET /admin/v1/plugins");

    static final String PROBLEM_JSON = "application/problem+json";
    static final String PROBLEM_SCHEMA_REF = "#/components/schemas/Problem";

    private final ServerClient client = ServerClient.fromBuild();
    private String document;
    private OpenAPI openApi;

    @BeforeEach
    void fetchAndParse() {
        ServerClient.Response response = client.get("openapi", null);
        assertEquals(200, response.status(), response.body());
        document = response.body();
        saveForReview(document);
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        SwaggerParseResult result = new OpenAPIV3Parser().readContents(document, null, options);
        assertEquals(List.of(), result.getMessages() == null ? List.of() : result.getMessages(),
                "swagger-parser reports problems in GET /openapi");
        openApi = result.getOpenAPI();
        assertNotNull(openApi, "swagger-parser produced no model from GET /openapi");
    }

    @Test
    void theDocumentIsValidOpenApi3WithTheBearerScheme() {
        assertTrue(openApi.getOpenapi().startsWith("3."), openApi.getOpenapi());
        assertEquals("Corpora", openApi.getInfo().getTitle());
        SecurityScheme jwt = openApi.getComponents().getSecuritySchemes().get("jwt");
        assertNotNull(jwt, "components.securitySchemes.jwt is missing");
        assertEquals(SecurityScheme.Type.HTTP, jwt.getType());
        assertEquals("bearer", jwt.getScheme());
        assertEquals("JWT", jwt.getBearerFormat());
        Schema<?> problem = openApi.getComponents().getSchemas().get("Problem");
        assertNotNull(problem, "components.schemas.Problem (RFC 9457) is missing");
        assertTrue(problem.getProperties().keySet().containsAll(List.of("type", "title", "status", "detail")), problem.getProperties().keySet().toString());
    }

    @Test
    void everyDataPlaneAndAdminRouteIsDocumented() {
        List<String> missing = new ArrayList<>();
        for (String route : ROUTES) {
            if (operation(route) == null) {
                missing.add(route);
            }
        }
        assertEquals(List.of(), missing, "routes missing from GET /openapi; documented: " + documentedRoutes());
    }

    @Test
    void everyRouteRequiresTheJwtBearerScheme() {
        List<String> open = new ArrayList<>();
        for (String route : documentedRoutes()) {
            if (!route.contains(" /api/") && !route.contains(" /admin/")) {
                continue;
            }
            Operation operation = operation(route);
            List<SecurityRequirement> security = operation.getSecurity() != null ? operation.getSecurity() : openApi.getSecurity();
            if (security == null || security.stream().noneMatch(requirement -> requirement.containsKey("jwt"))) {
                open.add(route);
            }
        }
        assertEquals(List.of(), open, "routes without the jwt security requirement");
    }

    @Test
    void everyRouteDocumentsASuccessAndItsErrorsAsProblemJson() {
        List<String> problems = new ArrayList<>();
        for (String route : documentedRoutes()) {
            if (!route.contains(" /api/") && !route.contains(" /admin/")) {
                continue;
            }
            Operation operation = operation(route);
            assertFalse(operation.getSummary() == null || operation.getSummary().isBlank(), route + " has no summary");
            if (operation.getResponses() == null || operation.getResponses().isEmpty()) {
                problems.add(route + ": no responses");
                continue;
            }
            if (operation.getResponses().keySet().stream().noneMatch(code -> code.startsWith("2") || code.equals("default"))) {
                problems.add(route + ": no success response");
            }
            List<String> required = new ArrayList<>(List.of("401", "403"));
            if (route.contains(" /api/v1/tenants/{tenant}")) {
                required.addAll(List.of("404", "409")); // unknown tenant; tenant not ACTIVE
            }
            for (String code : required) {
                if (!operation.getResponses().containsKey(code)) {
                    problems.add(route + ": no " + code + " response");
                }
            }
            for (Map.Entry<String, ApiResponse> response : operation.getResponses().entrySet()) {
                String code = response.getKey();
                if (code.equals("401")) {
                    // MP-JWT refuses before the application runs: an empty body with a Bearer challenge, documented as such.
                    if (response.getValue().getHeaders() == null || !response.getValue().getHeaders().containsKey("WWW-Authenticate")) {
                        problems.add(route + ": 401 does not document its WWW-Authenticate header");
                    }
                    continue;
                }
                if (!code.startsWith("4") && !code.startsWith("5")) {
                    continue;
                }
                MediaType problem = response.getValue().getContent() == null ? null : response.getValue().getContent().get(PROBLEM_JSON);
                if (problem == null || problem.getSchema() == null) {
                    problems.add(route + ": " + code + " is not documented as " + PROBLEM_JSON + " with a schema");
                } else if (!PROBLEM_SCHEMA_REF.equals(problem.getSchema().get$ref())) {
                    problems.add(route + ": " + code + " uses " + problem.getSchema().get$ref() + " instead of " + PROBLEM_SCHEMA_REF);
                }
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void theDocumentSaysHowDocumentIdsArePassed() {
        for (String route : List.of("GET /api/v1/tenants/{tenant}/document", "DELETE /api/v1/tenants/{tenant}/document",
                "GET /api/v1/tenants/{tenant}/document/chunks")) {
            io.swagger.v3.oas.models.parameters.Parameter id = operation(route).getParameters().stream()
                    .filter(p -> p.getName().equals("id")).findFirst().orElseThrow(() -> new AssertionError(route + " has no id parameter"));
            assertEquals("query", id.getIn(), route);
            assertEquals(Boolean.TRUE, id.getRequired(), route);
            assertTrue(id.getDescription().contains("any characters"), route + ": " + id.getDescription());
        }
        for (String route : List.of("GET /api/v1/tenants/{tenant}/documents/{id}", "DELETE /api/v1/tenants/{tenant}/documents/{id}",
                "GET /api/v1/tenants/{tenant}/documents/{id}/chunks")) {
            Operation operation = operation(route);
            assertTrue(operation.getDescription().contains("document?id="), route + " must point to the query form: " + operation.getDescription());
            io.swagger.v3.oas.models.parameters.Parameter id = operation.getParameters().stream()
                    .filter(p -> p.getName().equals("id")).findFirst().orElseThrow();
            assertEquals("path", id.getIn(), route);
            assertTrue(id.getDescription().contains("one percent-encoded path segment"), route + ": " + id.getDescription());
        }
    }

    @Test
    void swaggerUiIsServedNextToTheDocument() {
        ServerClient.Response ui = client.get("openapi/ui/", null);
        assertEquals(200, ui.status(), ui.body());
        assertTrue(ui.contentType().startsWith("text/html"), ui.contentType());
    }

    /** Keeps the generated document as a build artifact ({@code target/openapi/openapi.yaml}) for review. */
    private static void saveForReview(String document) {
        try {
            Path dir = Files.createDirectories(Path.of("target", "openapi"));
            Files.writeString(dir.resolve("openapi.yaml"), document, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save the OpenAPI document under target/openapi", e);
        }
    }

    private Operation operation(String route) {
        String[] parts = route.split(" ", 2);
        PathItem item = openApi.getPaths() == null ? null : openApi.getPaths().get(parts[1]);
        return item == null ? null : item.readOperationsMap().get(PathItem.HttpMethod.valueOf(parts[0]));
    }

    private TreeSet<String> documentedRoutes() {
        TreeSet<String> routes = new TreeSet<>();
        openApi.getPaths().forEach((path, item) -> item.readOperationsMap().keySet().forEach(method -> routes.add(method + " " + path)));
        return routes;
    }
}
