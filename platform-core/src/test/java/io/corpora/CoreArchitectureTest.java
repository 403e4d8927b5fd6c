package io.corpora;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.lang.ArchRule;
import io.corpora.engine.CallerText;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * platform-core runs without a container. Every class of this module (its own classes only: not the SPI, the plugin
 * loader or the test kit on the class path) is checked, so a package added later is covered without touching this test;
 * {@link #everyPackageOfTheModuleIsChecked} proves the imported classes span every package of {@code src/main/java}.
 */
class CoreArchitectureTest {

    private static final JavaClasses CORE = new ClassFileImporter().importLocations(Set.of(Location.of(
            CallerText.class.getProtectionDomain().getCodeSource().getLocation())));

    static final ArchRule NO_CONTAINER = noClasses().should().dependOnClassesThat().resideInAnyPackage("jakarta..",
                    "javax.ws..", "javax.enterprise..", "javax.persistence..", "org.eclipse.microprofile..")
            .because("the core runs without a container; Jakarta EE and MicroProfile adapters live in platform-server");

    static final ArchRule NO_FRONT_ENDS = noClasses().should().dependOnClassesThat().resideInAnyPackage("io.corpora.server..",
                    "io.corpora.cli..")
            .because("the server and the command line depend on the core, never the reverse");

    static final ArchRule NO_CYCLES = slices().matching("io.corpora.(**)").should().beFreeOfCycles()
            .because("each package can be understood, and tested, on top of the ones it uses");

    /** Coarser: a top-level area with its sub-packages (tenancy with tenancy.config) uses no area that uses it. */
    static final ArchRule NO_CYCLES_BETWEEN_AREAS = slices().matching("io.corpora.(*)..").should().beFreeOfCycles()
            .because("the areas of the core form layers: engine, control-plane interfaces, tenancy, runtime, ingest and retrieval, access");

    @Test
    void theCoreDependsOnNoContainer() {
        NO_CONTAINER.check(CORE);
    }

    @Test
    void theCoreDependsOnNeitherTheServerNorTheCommandLine() {
        NO_FRONT_ENDS.check(CORE);
    }

    @Test
    void corePackagesAreFreeOfCycles() {
        NO_CYCLES.check(CORE);
        NO_CYCLES_BETWEEN_AREAS.check(CORE);
    }

    @Test
    void everyPackageOfTheModuleIsChecked() throws IOException, URISyntaxException {
        Set<String> sourcePackages = sourcePackages();
        Set<String> checked = CORE.stream().map(JavaClass::getPackageName).collect(Collectors.toCollection(TreeSet::new));
        assertTrue(sourcePackages.size() > 10, "found the module's sources: " + sourcePackages);
        assertEquals(sourcePackages, checked);
    }

    @Test
    void everyPackageSaysWhatItHolds() throws IOException {
        Set<String> undocumented = new TreeSet<>();
        for (String name : sourcePackages()) {
            if (!Files.isRegularFile(SOURCES.resolve(name.replace('.', '/')).resolve("package-info.java"))) {
                undocumented.add(name);
            }
        }
        assertEquals(Set.of(), undocumented, "packages without a package-info.java");
    }

    /** Surefire runs in the module's directory. */
    private static final Path SOURCES = Path.of("src", "main", "java");

    private static Set<String> sourcePackages() throws IOException {
        try (Stream<Path> files = Files.walk(SOURCES)) {
            return files.filter(f -> f.toString().endsWith(".java") && !f.getFileName().toString().equals("package-info.java"))
                    .map(f -> SOURCES.relativize(f.getParent()).toString().replace('/', '.'))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }
}
