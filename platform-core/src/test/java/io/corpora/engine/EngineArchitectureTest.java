package io.corpora.engine;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The engine, the command line and the access decision (tenancy, access) are pure Java: unit-testable in milliseconds, usable outside the container.
 * They may use the plugin SPI and the plugin loader, never Jakarta EE / MicroProfile or the server's adapters.
 */
@AnalyzeClasses(packages = {"io.corpora.engine", "io.corpora.cli", "io.corpora.access", "io.corpora.tenancy"}, importOptions = ImportOption.DoNotIncludeTests.class)
class EngineArchitectureTest {

    @ArchTest
    static final ArchRule noJakarta = noClasses().that().resideInAnyPackage("io.corpora.engine..", "io.corpora.cli..",
                    "io.corpora.access..", "io.corpora.tenancy..")
            .should().dependOnClassesThat().resideInAnyPackage("jakarta..", "javax.ws..", "javax.enterprise..",
                    "org.eclipse.microprofile..")
            .because("the engine, the CLI and the access decision run without a container");

    @ArchTest
    static final ArchRule noServerAdapters = noClasses().that().resideInAnyPackage("io.corpora.engine..", "io.corpora.cli..",
                    "io.corpora.access..", "io.corpora.tenancy..")
            .should().dependOnClassesThat().resideInAnyPackage("io.corpora.server..")
            .because("adapters depend on the engine, never the reverse");

    @ArchTest
    static final ArchRule engineIndependentOfCli = noClasses().that().resideInAnyPackage("io.corpora.engine..")
            .should().dependOnClassesThat().resideInAnyPackage("io.corpora.cli..", "io.corpora.plugin.loader..")
            .because("the engine is composed by its callers; it loads no plugins itself");
}
