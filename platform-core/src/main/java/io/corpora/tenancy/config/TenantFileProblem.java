package io.corpora.tenancy.config;

/**
 * One reason a tenant declaration was refused.
 *
 * @param file    the tenant file's name (or {@code request} for an admin API body)
 * @param pointer the JSON pointer (RFC 6901) of the offending field; empty for the whole document
 * @param reason  what is wrong, in words an operator can act on
 */
public record TenantFileProblem(String file, String pointer, String reason) {

    @Override
    public String toString() {
        return file + ": " + (pointer.isEmpty() ? "(document)" : pointer) + ": " + reason;
    }
}
