package io.corpora.tenancy.config;

import io.corpora.controlplane.Tenant;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.controlplane.TenantRepository;
import io.corpora.controlplane.TenantState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Brings the tenant registry in line with the tenant files: creates missing tenants, updates changed ones, and
 * reports (never deletes) tenants that exist only in the database. Invalid files change nothing.
 */
public final class TenantSync {

    private static final int PAGE = 200;

    private final TenantRepository tenants;
    private final UpdateCheck updateCheck;

    /** Vets a change to an existing tenant; throws {@link IllegalStateException} naming the reason to refuse it. */
    @FunctionalInterface
    public interface UpdateCheck {
        void check(Tenant current, TenantDefinition next);
    }

    public TenantSync(TenantRepository tenants) {
        this(tenants, (current, next) -> { });
    }

    public TenantSync(TenantRepository tenants, UpdateCheck updateCheck) {
        this.tenants = tenants;
        this.updateCheck = updateCheck;
    }

    /** What a sync did. */
    public record Report(List<String> created, List<String> updated, List<String> unchanged, List<TenantFileProblem> invalid,
                         List<String> onlyInDatabase) {
        public Report {
            created = List.copyOf(created);
            updated = List.copyOf(updated);
            unchanged = List.copyOf(unchanged);
            invalid = List.copyOf(invalid);
            onlyInDatabase = List.copyOf(onlyInDatabase);
        }
    }

    public Report apply(TenantFiles.Loaded files) {
        List<String> created = new ArrayList<>();
        List<String> updated = new ArrayList<>();
        List<String> unchanged = new ArrayList<>();
        List<TenantFileProblem> invalid = new ArrayList<>(files.problems());
        for (TenantFiles.LoadedTenant file : files.tenants().values().stream()
                .sorted(Comparator.comparing(t -> t.definition().id())).toList()) {
            TenantDefinition declared = file.definition();
            try {
                Optional<Tenant> existing = tenants.find(declared.id());
                if (existing.isEmpty()) {
                    tenants.create(declared);
                    created.add(declared.id());
                    continue;
                }
                Tenant current = existing.get();
                if (current.state() == TenantState.DELETING) {
                    invalid.add(new TenantFileProblem(file.file(), "/id", "tenant '" + declared.id()
                            + "' is being deleted (state DELETING); purge it before this file can create it again"));
                    continue;
                }
                TenantDefinition desired = file.declaresState() ? declared : declared.withState(current.state());
                if (desired.equals(current.definition())) {
                    unchanged.add(declared.id());
                } else {
                    updateCheck.check(current, desired);
                    tenants.update(desired);
                    updated.add(declared.id());
                }
            } catch (RuntimeException e) {
                // A refused change, or e.g. a concurrent create of the same id: report it against the file, go on with the others.
                invalid.add(new TenantFileProblem(file.file(), "", "not applied: " + e.getMessage()));
            }
        }
        Set<String> declaredIds = new HashSet<>(files.tenants().keySet());
        declaredIds.addAll(files.invalidIds());
        List<String> onlyInDatabase = new ArrayList<>();
        String after = null;
        while (true) {
            List<Tenant> page = tenants.list(after, PAGE);
            for (Tenant tenant : page) {
                if (!declaredIds.contains(tenant.id())) {
                    onlyInDatabase.add(tenant.id());
                }
            }
            if (page.size() < PAGE) {
                break;
            }
            after = page.get(page.size() - 1).id();
        }
        return new Report(created, updated, unchanged, invalid, onlyInDatabase);
    }
}
