package io.corpora.server.tenants;

import io.corpora.controlplane.AuditEvent;
import io.corpora.controlplane.AuditLog;
import io.corpora.controlplane.DocumentRegistry;
import io.corpora.controlplane.JobRepository;
import io.corpora.controlplane.Tenant;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.controlplane.TenantRepository;
import io.corpora.controlplane.TenantState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Supplier;

/**
 * The tenant lifecycle behind the admin API: create, update, state changes and the two-step delete (mark DELETING,
 * then purge). Every call is audited with its actor and outcome; illegal transitions throw {@link IllegalTenantTransition}.
 */
@ApplicationScoped
public class TenantLifecycle {

    @Inject
    TenantRepository tenants;

    @Inject
    DocumentRegistry documents;

    @Inject
    JobRepository jobs;

    @Inject
    AuditLog audit;

    @Inject
    Instance<TenantPurger> purgers;

    @Inject
    Event<TenantChanged> changes;

    @Inject
    Instance<TenantUpdateGuard> guards;

    @Inject
    Instance<TenantOffloader> offloader;

    /** A change the tenant's current state does not allow (409). */
    public static class IllegalTenantTransition extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public IllegalTenantTransition(String message) {
            super(message);
        }
    }

    public Tenant create(String actor, TenantDefinition definition) {
        return audited(actor, definition.id(), "tenant.create", Map.of("displayName", definition.displayName()), () -> {
            if (definition.state() == TenantState.DELETING) {
                throw new IllegalArgumentException("a tenant cannot be created in state DELETING");
            }
            Tenant created = tenants.create(definition);
            changes.fire(new TenantChanged(created.id(), created.state(), "created"));
            return created;
        });
    }

    /** Replaces the definition; {@code keepState}: the request did not name a state, so the current one stays. */
    public Tenant update(String actor, TenantDefinition definition, boolean keepState) {
        return audited(actor, definition.id(), "tenant.update", Map.of(), () -> {
            Tenant current = require(definition.id());
            refuseWhileDeleting(current, "updated");
            TenantDefinition next = keepState ? definition.withState(current.state()) : definition;
            if (current.state() == TenantState.OFFLOADED && next.state() != TenantState.OFFLOADED) {
                throw new IllegalTenantTransition("tenant '" + current.id() + "' is OFFLOADED; bring it back with POST /admin/v1/tenants/"
                        + current.id() + "/state {\"state\": \"ACTIVE\"}, which restores its data, before changing its state by an update");
            }
            if (next.state() == TenantState.DELETING) {
                throw new IllegalArgumentException("state DELETING is set by DELETE /admin/v1/tenants/" + definition.id() + ", not by an update");
            }
            for (TenantUpdateGuard guard : guards) {
                guard.check(current, next);
            }
            Tenant updated = tenants.update(next);
            changes.fire(new TenantChanged(updated.id(), updated.state(), "updated"));
            return updated;
        });
    }

    /**
     * ACTIVE ⇄ INACTIVE ⇄ OFFLOADED (and ACTIVE → OFFLOADED). Offloading first refuses the tenant's traffic (INACTIVE),
     * then moves its store data aside; a store that cannot offload leaves it in its former state (409). Leaving OFFLOADED
     * restores the data first. DELETING is entered only through {@link #markDeleting} and left only through {@link #purge}.
     */
    public Tenant setState(String actor, String tenantId, TenantState state) {
        return audited(actor, tenantId, "tenant.state", Map.of("state", String.valueOf(state)), () -> {
            if (state == TenantState.DELETING) {
                throw new IllegalArgumentException("state DELETING is set by DELETE /admin/v1/tenants/" + tenantId);
            }
            Tenant current = require(tenantId);
            refuseWhileDeleting(current, "given a new state");
            if (state == current.state()) {
                return current;
            }
            if (state == TenantState.OFFLOADED) {
                return offload(current);
            }
            if (current.state() == TenantState.OFFLOADED) {
                offloader().restore(current);
            }
            Tenant changed = tenants.setState(tenantId, state);
            changes.fire(new TenantChanged(tenantId, state, "state"));
            return changed;
        });
    }

    private Tenant offload(Tenant current) {
        String tenantId = current.id();
        if (current.state() == TenantState.ACTIVE) {
            tenants.setState(tenantId, TenantState.INACTIVE); // no new call starts; the offload waits out those in flight
            changes.fire(new TenantChanged(tenantId, TenantState.INACTIVE, "state"));
        }
        boolean offloaded;
        try {
            offloaded = offloader().offload(current);
        } catch (RuntimeException e) {
            restoreState(current);
            throw e;
        }
        if (!offloaded) {
            restoreState(current);
            throw new IllegalTenantTransition("tenant '" + tenantId + "' uses store '" + current.definition().store().provider()
                    + "', which cannot offload; set it INACTIVE instead (it then holds nothing open either)");
        }
        Tenant changed = tenants.setState(tenantId, TenantState.OFFLOADED);
        changes.fire(new TenantChanged(tenantId, TenantState.OFFLOADED, "state"));
        return changed;
    }

    private void restoreState(Tenant before) {
        if (before.state() == TenantState.ACTIVE) {
            tenants.setState(before.id(), TenantState.ACTIVE);
            changes.fire(new TenantChanged(before.id(), TenantState.ACTIVE, "state"));
        }
    }

    private TenantOffloader offloader() {
        if (!offloader.isResolvable()) {
            throw new IllegalStateException("no tenant offloader is available");
        }
        return offloader.get();
    }

    /** Step one of deletion: data-plane calls stop, nothing is removed yet. Repeating it is harmless. */
    public Tenant markDeleting(String actor, String tenantId) {
        return audited(actor, tenantId, "tenant.delete", Map.of(), () -> {
            Tenant current = require(tenantId);
            if (current.state() == TenantState.DELETING) {
                return current;
            }
            refuseWhileMigrating(current, "marked for deletion");
            Tenant marked = tenants.setState(tenantId, TenantState.DELETING);
            changes.fire(new TenantChanged(tenantId, TenantState.DELETING, "state"));
            return marked;
        });
    }

    /**
     * Step two: every {@link TenantPurger}, then the registry rows, then the tenant. Only for a DELETING tenant.
     * {@code leaveStoreData}: see {@link TenantPurger#purge}.
     */
    public int purge(String actor, String tenantId, boolean leaveStoreData) {
        return audited(actor, tenantId, "tenant.purge", leaveStoreData ? Map.of("leaveStoreData", true) : Map.of(), () -> {
            Tenant current = require(tenantId);
            if (current.state() != TenantState.DELETING) {
                throw new IllegalTenantTransition("tenant '" + tenantId + "' is " + current.state()
                        + "; only a tenant marked for deletion (DELETE /admin/v1/tenants/" + tenantId + ") can be purged");
            }
            refuseWhileMigrating(current, "purged");
            for (TenantPurger purger : purgers) {
                purger.purge(tenantId, leaveStoreData);
            }
            int removed = documents.deleteTenant(tenantId);
            tenants.delete(tenantId);
            changes.fire(new TenantChanged(tenantId, null, "purged"));
            return removed;
        });
    }

    /** Records a request refused before it reached the lifecycle (e.g. an invalid definition). */
    public void recordRefusal(String actor, String tenantId, String action, String reason) {
        audit.append(new AuditEvent(Instant.now(), actor, tenantId, action, tenantId, "failure", Map.of("error", reason)));
    }

    private Tenant require(String tenantId) {
        return tenants.find(tenantId).orElseThrow(() -> new NoSuchElementException("tenant '" + tenantId + "' does not exist"));
    }

    /** A re-embed or relocation copies the corpus in the background: deleting under it would leave one of its copies behind. */
    private void refuseWhileMigrating(Tenant current, String what) {
        jobs.unfinishedMigration(current.id()).ifPresent(job -> {
            throw new IllegalTenantTransition("tenant '" + current.id() + "' is being migrated by " + job.kind().name().toLowerCase(java.util.Locale.ROOT)
                    + " job " + job.id() + " and cannot be " + what + " until it ends (GET /admin/v1/tenants/" + current.id() + "/jobs/" + job.id() + ")");
        });
    }

    private static void refuseWhileDeleting(Tenant current, String what) {
        if (current.state() == TenantState.DELETING) {
            throw new IllegalTenantTransition("tenant '" + current.id() + "' is marked for deletion (DELETING) and cannot be " + what
                    + "; purge it with POST /admin/v1/tenants/" + current.id() + ":purge");
        }
    }

    private <T> T audited(String actor, String tenantId, String action, Map<String, Object> details, Supplier<T> change) {
        try {
            T result = change.get();
            audit.append(new AuditEvent(Instant.now(), actor, tenantId, action, tenantId, "success", details));
            return result;
        } catch (RuntimeException e) {
            Map<String, Object> failure = new LinkedHashMap<>(details);
            failure.put("error", String.valueOf(e.getMessage()));
            audit.append(new AuditEvent(Instant.now(), actor, tenantId, action, tenantId, "failure", failure));
            throw e;
        }
    }
}
