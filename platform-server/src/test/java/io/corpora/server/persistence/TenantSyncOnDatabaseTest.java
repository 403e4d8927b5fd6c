package io.corpora.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.controlplane.TenantRepository;
import io.corpora.controlplane.TenantState;
import io.corpora.tenancy.config.TenantDefinitionValidator;
import io.corpora.tenancy.config.TenantFiles;
import io.corpora.tenancy.config.TenantSync;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** tenants-config sync against the real tenant registry (JPA on a migrated H2 file database). */
class TenantSyncOnDatabaseTest {

    @RegisterExtension
    final ControlPlanes controlPlanes = new ControlPlanes();
    @TempDir
    Path config;

    private ControlPlaneJpa jpa;
    private TenantRepository tenants;
    private final TenantFiles files = new TenantFiles(TenantDefinitionValidator.packaged());

    @BeforeEach
    void open() {
        jpa = controlPlanes.h2();
        tenants = jpa.transactional(TenantRepository.class, jpa.tenants(Clock.systemUTC()));
    }

    private TenantSync.Report sync() {
        return new TenantSync(tenants).apply(files.read(config));
    }

    private void write(String name, String text) throws Exception {
        Files.writeString(config.resolve(name), text);
    }

    @Test
    void createsThenLeavesAloneThenUpdatesWhatChanged() throws Exception {
        write("alpha.yaml", "id: alpha\nstore: {provider: lucene}\nembedder: {provider: onnx}\n");
        write("beta.yaml", "id: beta\nstore: {provider: lucene}\nembedder: {provider: onnx}\n");
        TenantSync.Report first = sync();
        assertEquals(List.of("alpha", "beta"), first.created());
        assertEquals(List.of(), first.invalid());

        TenantSync.Report second = sync();
        assertEquals(List.of(), second.created());
        assertEquals(List.of(), second.updated());
        assertEquals(List.of("alpha", "beta"), second.unchanged());

        write("beta.yaml", "id: beta\ndisplayName: Beta Inc.\nstore: {provider: lucene}\nembedder: {provider: onnx}\nretrieval: {topK: 9}\n");
        TenantSync.Report third = sync();
        assertEquals(List.of("beta"), third.updated());
        assertEquals(List.of("alpha"), third.unchanged());
        assertEquals(9, tenants.find("beta").orElseThrow().definition().retrieval().topK());
    }

    @Test
    void aStateSetThroughTheApiSurvivesSyncUnlessTheFileDeclaresOne() throws Exception {
        write("alpha.yaml", "id: alpha\nstore: {provider: lucene}\nembedder: {provider: onnx}\n");
        sync();
        tenants.setState("alpha", TenantState.INACTIVE);
        assertEquals(List.of("alpha"), sync().unchanged(), "a file without state does not re-activate the tenant");
        assertEquals(TenantState.INACTIVE, tenants.find("alpha").orElseThrow().state());

        write("alpha.yaml", "id: alpha\nstate: ACTIVE\nstore: {provider: lucene}\nembedder: {provider: onnx}\n");
        assertEquals(List.of("alpha"), sync().updated());
        assertEquals(TenantState.ACTIVE, tenants.find("alpha").orElseThrow().state());
    }

    @Test
    void tenantsOnlyInTheDatabaseAreReportedNeverDeletedAndInvalidFilesChangeNothing() throws Exception {
        write("alpha.yaml", "id: alpha\nstore: {provider: lucene}\nembedder: {provider: onnx}\n");
        write("beta.yaml", "id: beta\nstore: {provider: lucene}\nembedder: {provider: onnx}\n");
        sync();
        Files.delete(config.resolve("alpha.yaml"));
        write("beta.yaml", "id: beta\nstore: {provider: lucene}\n");  // embedder removed: invalid
        write("gamma.yaml", "id: gamma\nstore: {provider: lucene, config: {apiKey: plain}}\nembedder: {provider: onnx}\n");

        TenantSync.Report report = sync();
        assertEquals(List.of("alpha"), report.onlyInDatabase(), "beta has a (broken) file, so it is not 'only in the database'");
        assertTrue(tenants.find("alpha").isPresent(), "never deleted");
        assertEquals("onnx", tenants.find("beta").orElseThrow().definition().embedder().provider(), "an invalid file changes nothing");
        assertTrue(tenants.find("gamma").isEmpty());
        assertEquals(List.of("beta.yaml:/embedder", "gamma.yaml:/store/config/apiKey"),
                report.invalid().stream().map(p -> p.file() + ":" + p.pointer()).sorted().toList());
    }

    @Test
    void aChangeTheUpdateCheckRefusesIsReportedAndNotApplied() throws Exception {
        write("alpha.yaml", "id: alpha\nstore: {provider: lucene}\nembedder: {provider: onnx}\n");
        sync();
        write("alpha.yaml", "id: alpha\ndisplayName: Alpha\nstore: {provider: lucene}\nembedder: {provider: other-model}\n");
        TenantSync.UpdateCheck sameEmbedder = (current, next) -> {
            if (!current.definition().embedder().equals(next.embedder())) {
                throw new IllegalStateException("tenant '" + current.id() + "' has a non-empty corpus; a new embedder needs a re-embed migration");
            }
        };
        TenantSync.Report report = new TenantSync(tenants, sameEmbedder).apply(files.read(config));
        assertEquals(List.of(), report.updated());
        assertEquals("alpha.yaml", report.invalid().get(0).file());
        assertTrue(report.invalid().get(0).reason().contains("re-embed migration"), report.invalid().toString());
        assertEquals("onnx", tenants.find("alpha").orElseThrow().definition().embedder().provider(), "nothing was stored");
        assertEquals("alpha", tenants.find("alpha").orElseThrow().definition().displayName());
    }

    @Test
    void aTenantBeingDeletedIsNotResurrectedBySync() throws Exception {
        write("alpha.yaml", "id: alpha\nstore: {provider: lucene}\nembedder: {provider: onnx}\n");
        sync();
        tenants.setState("alpha", TenantState.DELETING);
        TenantSync.Report report = sync();
        assertEquals(List.of(), report.updated());
        assertEquals(1, report.invalid().size());
        assertTrue(report.invalid().get(0).reason().contains("DELETING"), report.invalid().toString());
        assertEquals(TenantState.DELETING, tenants.find("alpha").orElseThrow().state());
    }
}
