package io.corpora.server.tenants;

import io.corpora.controlplane.AuditEvent;
import io.corpora.controlplane.AuditLog;
import io.corpora.controlplane.TenantRepository;
import io.corpora.tenancy.config.DefinitionCheck;
import io.corpora.tenancy.config.TenantDefinitionValidator;
import io.corpora.tenancy.config.TenantFileProblem;
import io.corpora.tenancy.config.TenantFiles;
import io.corpora.tenancy.config.TenantSync;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Syncs the tenant registry with tenants-config: the directory {@code corpora.tenants.dir} if set, otherwise the
 * files packaged in the WAR ({@code tenants-config/}). Runs at boot and on {@code POST /admin/v1/tenants:sync}.
 */
@ApplicationScoped
public class TenantsConfigService {

    private static final Logger LOG = Logger.getLogger(TenantsConfigService.class.getName());
    /** The actor recorded for boot-time sync. */
    public static final String SYSTEM_ACTOR = "system";

    @Inject
    @ConfigProperty(name = "corpora.tenants.dir")
    Optional<String> configuredDirectory;

    @Inject
    TenantRepository tenants;

    @Inject
    AuditLog audit;

    @Inject
    Event<TenantChanged> changes;

    @Inject
    Instance<TenantUpdateGuard> guards;

    @Inject
    DefinitionCheck definitionCheck;

    private final TenantDefinitionValidator validator = TenantDefinitionValidator.packaged();

    public TenantDefinitionValidator validator() {
        return validator;
    }

    /** The directory synced from. */
    public Path directory() {
        return configuredDirectory.filter(d -> !d.isBlank()).map(Path::of)
                .orElseGet(() -> TenantFiles.packagedDirectory(TenantsConfigService.class.getClassLoader()));
    }

    public TenantSync.Report sync(String actor) {
        Path directory = directory();
        TenantSync.UpdateCheck guarded = (current, next) -> guards.forEach(guard -> guard.check(current, next));
        TenantSync.Report report = new TenantSync(tenants, guarded).apply(new TenantFiles(validator, definitionCheck).read(directory));
        report.created().forEach(id -> tenantChanged(actor, id, "tenant.create", "created"));
        report.updated().forEach(id -> tenantChanged(actor, id, "tenant.update", "updated"));
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("directory", directory.toString());
        details.put("created", report.created());
        details.put("updated", report.updated());
        details.put("unchanged", report.unchanged().size());
        details.put("invalid", report.invalid().stream().map(TenantFileProblem::toString).toList());
        details.put("onlyInDatabase", report.onlyInDatabase());
        audit.append(new AuditEvent(Instant.now(), actor, null, "tenants.sync", directory.toString(),
                report.invalid().isEmpty() ? "success" : "failure", details));
        return report;
    }

    /** At boot: problems are logged (the server still starts with the tenants that are valid). */
    public void syncAtBoot() {
        try {
            TenantSync.Report report = sync(SYSTEM_ACTOR);
            LOG.info("tenants-config sync from " + directory() + ": created " + report.created() + ", updated " + report.updated()
                    + ", unchanged " + report.unchanged() + ", only in the database " + report.onlyInDatabase());
            report.invalid().forEach(problem -> LOG.warning("tenants-config: " + problem));
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "tenants-config sync failed at boot: " + e.getMessage(), e);
        }
    }

    private void tenantChanged(String actor, String tenantId, String action, String change) {
        audit.append(new AuditEvent(Instant.now(), actor, tenantId, action, tenantId, "success", Map.of("via", "tenants-config")));
        tenants.find(tenantId).ifPresent(t -> changes.fire(new TenantChanged(tenantId, t.state(), change)));
    }
}
