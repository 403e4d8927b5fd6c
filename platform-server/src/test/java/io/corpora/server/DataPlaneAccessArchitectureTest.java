package io.corpora.server;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.corpora.controlplane.DocumentRegistry;
import io.corpora.controlplane.JobRepository;
import io.corpora.ingest.IngestionService;
import io.corpora.retrieval.RetrievalService;
import io.corpora.runtime.TenantRuntime;
import io.corpora.runtime.TenantRuntimes;
import io.corpora.runtime.guard.GuardedFilterHook;
import io.corpora.server.archfixture.RegistryReadingResource;
import io.corpora.spi.filter.RetrievalFilterHook;
import io.corpora.spi.store.VectorStore;
import io.corpora.tenancy.AccessDecision;
import io.corpora.tenancy.AccessFilters;
import io.corpora.tenancy.IsolationGuard;
import jakarta.ws.rs.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every data-plane route reads and writes tenant data through the request's {@code TenantView}, built from its one
 * {@link AccessDecision}: a route that reaches the registry, the job repository, a store or a tenant runtime itself
 * could skip the access filter, so this test fails on one. Data-plane routes are every JAX-RS resource outside
 * {@code io.corpora.server.admin} (the platform-admin API, which has no tenant actor) plus everything in
 * {@code io.corpora.server.api}, so a resource added in a new package (an MCP endpoint, an export) is covered too.
 */
class DataPlaneAccessArchitectureTest {

    private static final List<Class<?>> TENANT_DATA = List.of(DocumentRegistry.class, JobRepository.class, VectorStore.class,
            TenantRuntime.class, TenantRuntimes.class, IsolationGuard.class, RetrievalService.class, IngestionService.class,
            AccessFilters.class, RetrievalFilterHook.class);

    private static final DescribedPredicate<JavaClass> TENANT_DATA_TYPES = describe("tenant data without an access decision "
            + TENANT_DATA.stream().map(Class::getSimpleName).toList(), c -> TENANT_DATA.stream().anyMatch(t -> c.isAssignableTo(t)));

    private static final DescribedPredicate<JavaClass> DATA_PLANE_ROUTES = describe("data-plane routes (JAX-RS resources outside"
            + " io.corpora.server.admin, and io.corpora.server.api)", c -> !c.getPackageName().startsWith("io.corpora.server.admin")
            && (c.getPackageName().startsWith("io.corpora.server.api") || isResource(c)));

    static final ArchRule ROUTES_USE_THE_VIEW = noClasses().that(DATA_PLANE_ROUTES)
            .should().dependOnClassesThat(TENANT_DATA_TYPES)
            .orShould().callMethodWhere(describe("a method returning tenant data (e.g. DataPlane.registry())",
                    (JavaCall<?> call) -> TENANT_DATA_TYPES.test(call.getTarget().getRawReturnType())))
            .because("routes read tenant data only through the TenantView of their request's AccessDecision");

    static final ArchRule ONE_HOOK_EVALUATION = noClasses()
            .that().doNotHaveFullyQualifiedName(AccessFilters.class.getName())
            .and().doNotHaveFullyQualifiedName(GuardedFilterHook.class.getName())
            // The test kit's hook contract calls a plugin's hook directly, to test the plugin, outside any server.
            .and().resideOutsideOfPackage("io.corpora.testkit..")
            .should().callMethodWhere(describe("RetrievalFilterHook.filterFor", (JavaCall<?> call) ->
                    call.getTarget().getOwner().isAssignableTo(RetrievalFilterHook.class) && call.getName().equals("filterFor")))
            .because("the tenant's hook is evaluated once per request, by AccessDecision through AccessFilters");

    static final ArchRule ONLY_THE_DECISION_DERIVES_ACCESS = noClasses()
            .that().doNotHaveFullyQualifiedName(AccessDecision.class.getName())
            .should().callMethod(AccessFilters.class, "accessFilter", RetrievalFilterHook.class, io.corpora.spi.filter.Actor.class)
            .because("one access decision per request: retrieval and every other route use the same object");

    private static boolean isResource(JavaClass c) {
        return c.isAnnotatedWith(Path.class) || c.getMethods().stream().anyMatch(m -> m.isAnnotatedWith(Path.class));
    }

    private static final JavaClasses SERVER = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.corpora");

    @Test
    void dataPlaneRoutesReadTenantDataOnlyThroughTheirView() {
        assertTrue(SERVER.contain("io.corpora.server.api.DocumentsResource"), "the routes were imported");
        ROUTES_USE_THE_VIEW.check(SERVER);
    }

    @Test
    void theFilterHookIsEvaluatedInOnePlace() {
        ONE_HOOK_EVALUATION.check(SERVER);
        ONLY_THE_DECISION_DERIVES_ACCESS.check(SERVER);
    }

    @Test
    void aRouteInANewPackageThatReadsTheRegistryFailsTheRule() {
        JavaClasses fixture = new ClassFileImporter().importClasses(RegistryReadingResource.class);
        EvaluationResult result = ROUTES_USE_THE_VIEW.evaluate(fixture);
        assertTrue(result.hasViolation(), "the rule must catch a resource that reads the registry itself");
        String report = result.getFailureReport().toString();
        assertTrue(report.contains("DocumentRegistry"), report);
        assertTrue(report.contains("DataPlane.registry()"), "the accessor call is reported too: " + report);
        assertFalse(ROUTES_USE_THE_VIEW.evaluate(new ClassFileImporter().importClasses(io.corpora.server.api.JobsResource.class))
                .hasViolation());
    }
}
