package io.corpora.tenancy.config;

import java.util.List;
import java.util.stream.Collectors;

/** A tenant declaration that failed validation; carries every problem found, not only the first. */
public class InvalidTenantDefinitionException extends IllegalArgumentException {

    private final transient List<TenantFileProblem> problems;

    public InvalidTenantDefinitionException(List<TenantFileProblem> problems) {
        super(problems.stream().map(TenantFileProblem::toString).collect(Collectors.joining("; ")));
        this.problems = List.copyOf(problems);
    }

    public List<TenantFileProblem> problems() {
        return problems;
    }
}
