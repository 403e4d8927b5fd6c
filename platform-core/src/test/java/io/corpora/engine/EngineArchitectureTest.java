package io.corpora.engine;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The engine is composed by its callers: it loads no plugins and knows nothing of tenants, ingestion or retrieval
 * requests. (That no core class uses a container, the server or the CLI is {@code CoreArchitectureTest}'s rule.)
 */
@AnalyzeClasses(packages = "io.corpora.engine", importOptions = ImportOption.DoNotIncludeTests.class)
class EngineArchitectureTest {

    @ArchTest
    static final ArchRule engineIsComposedByItsCallers = noClasses().that().resideInAnyPackage("io.corpora.engine..")
            .should().dependOnClassesThat().resideInAnyPackage("io.corpora.plugin.loader..", "io.corpora.access..",
                    "io.corpora.controlplane..", "io.corpora.ingest..", "io.corpora.retrieval..", "io.corpora.runtime..",
                    "io.corpora.security..", "io.corpora.tenancy..")
            .because("the engine is composed by its callers; it loads no plugins itself and holds no tenant state");
}
