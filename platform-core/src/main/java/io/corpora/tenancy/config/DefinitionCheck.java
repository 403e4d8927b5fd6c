package io.corpora.tenancy.config;

import io.corpora.controlplane.TenantDefinition;
import java.util.List;

/**
 * A check of a schema-valid tenant definition that the schema cannot make (e.g. that this server can create its
 * plugins), applied wherever a definition enters: the admin API's create and update, and tenants-config files.
 */
@FunctionalInterface
public interface DefinitionCheck {

    /** Nothing to check. */
    DefinitionCheck NONE = (file, definition) -> List.of();

    /** Every problem of {@code definition}, each at its field; empty when it passes. */
    List<TenantFileProblem> problems(String file, TenantDefinition definition);

    /**
     * The problems under one top-level field ({@code store}, {@code embedder}, …): for a request that changes that field
     * alone (a migration's target), where the definition's other fields are the tenant's, not the request's.
     */
    default List<TenantFileProblem> problemsUnder(String file, TenantDefinition definition, String field) {
        String prefix = "/" + field + "/";
        return problems(file, definition).stream().filter(problem -> problem.pointer().startsWith(prefix)).toList();
    }

    /** Throws {@link InvalidTenantDefinitionException} listing every problem. */
    default void require(String file, TenantDefinition definition) {
        List<TenantFileProblem> problems = problems(file, definition);
        if (!problems.isEmpty()) {
            throw new InvalidTenantDefinitionException(problems);
        }
    }
}
