package io.corpora.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.controlplane.DocumentRegistry;
import io.corpora.controlplane.TenantRepository;
import io.corpora.controlplane.WriteRefusedException;
import io.corpora.spi.Namespace;
import java.time.Clock;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A first version begun in the last instant of a purge — after the tenant's document rows were deleted, right before
 * its row is — made to happen on every run: another connection begins it when the purge is about to send the tenant's
 * DELETE. H2, whose document insert does not lock the tenant row, lets it in: the purge fails as a conflict to purge
 * again (the corpus already gone), and the next purge removes both. PostgreSQL makes the insert wait for the purge, then
 * refuses it as the tenant gone. Neither is a 500, and no document outlives its tenant.
 */
class PurgeLastInstantTest {

    private static final Namespace ACME = Namespace.of("acme");

    @RegisterExtension
    final ControlPlanes controlPlanes = new ControlPlanes();

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void aFirstVersionBegunAsTheTenantRowIsDeletedIsAConflictOrRefusedNeverAnOrphan(String database) throws Exception {
        ControlPlaneJpa jpa = controlPlanes.open(database);
        Clock clock = Clock.systemUTC();
        TenantRepository tenants = jpa.transactional(TenantRepository.class, jpa.tenants(clock));
        tenants.create(ControlPlaneRepositoriesTest.tenant("acme"));
        DocumentRegistry otherServer = jpa.documentsOnOwnConnection(clock);
        CompletableFuture<Object> begun = new CompletableFuture<>();
        AtomicBoolean inBeforeTheDelete = new AtomicBoolean();
        SqlRecorder.beforeStatement(sql -> sql.toLowerCase(Locale.ROOT).startsWith("delete from tenants "), () -> {
            Thread writer = new Thread(() -> {
                try {
                    begun.complete(otherServer.beginVersion(ACME, "late", "late.md", "text/markdown", Map.of(), 10));
                } catch (RuntimeException e) {
                    begun.complete(e);
                }
            });
            writer.start();
            try {
                begun.get(3, TimeUnit.SECONDS);
                inBeforeTheDelete.set(true);
            } catch (TimeoutException waiting) {
                // PostgreSQL: the insert's foreign-key check waits for this transaction's lock on the tenant row
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });

        if (database.equals("h2")) {
            IllegalStateException conflict = assertThrows(IllegalStateException.class, () -> tenants.delete("acme"));
            assertTrue(inBeforeTheDelete.get(), "the first version was begun before the tenant's DELETE");
            assertEquals(1, begun.get(), "its version");
            assertTrue(conflict.getMessage().contains("purge it again"), conflict.getMessage());
            assertTrue(tenants.find("acme").isPresent(), "the tenant stays, to be purged again");
            tenants.delete("acme");
        } else {
            tenants.delete("acme");
            assertFalse(inBeforeTheDelete.get(), "the insert waited for the purge");
            WriteRefusedException refused = assertInstanceOf(WriteRefusedException.class, begun.get(10, TimeUnit.SECONDS));
            assertEquals(WriteRefusedException.Reason.TENANT_GONE, refused.reason());
        }
        assertTrue(tenants.find("acme").isEmpty());
        assertTrue(otherServer.find(ACME, "late").isEmpty(), "no document outlives its tenant");
    }
}
