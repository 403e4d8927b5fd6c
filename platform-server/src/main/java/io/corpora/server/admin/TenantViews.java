package io.corpora.server.admin;

import io.corpora.server.admin.model.TenantFileProblemView;
import io.corpora.controlplane.Tenant;
import io.corpora.server.rest.Problem;
import io.corpora.tenancy.config.TenantDefinitionCodec;
import io.corpora.tenancy.config.TenantFileProblem;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.jwt.JsonWebToken;

/** JSON shapes of the tenant admin API: the tenant document plus runtime fields, problems, audit entries. */
final class TenantViews {

    private TenantViews() {}

    /** Who the audit log names: the token's subject (its upn/name when a token has no sub). */
    static String actor(JsonWebToken caller) {
        if (caller == null) {
            return "anonymous";
        }
        String subject = caller.getSubject();
        return subject == null || subject.isBlank() ? String.valueOf(caller.getName()) : subject;
    }

    static Map<String, Object> tenant(Tenant tenant) {
        Map<String, Object> out = TenantDefinitionCodec.toMap(tenant.definition());
        out.put("activeEmbedder", tenant.activeEmbedder());
        out.put("created", String.valueOf(tenant.created()));
        out.put("updated", String.valueOf(tenant.updated()));
        out.put("revision", tenant.revision());
        return out;
    }

    static Response invalid(List<TenantFileProblem> problems) {
        return Problem.response(400, "invalid-tenant", "Invalid tenant definition",
                problems.size() + " problem(s): " + String.join("; ", problems.stream().map(TenantFileProblem::toString).toList()),
                Map.of("errors", problems.stream().map(TenantFileProblemView::of).toList()));
    }

    static Response notFound(String tenantId) {
        return Problem.response(404, "tenant-not-found", "Tenant not found", "tenant '" + tenantId + "' does not exist");
    }

    static Response conflict(String detail) {
        return Problem.response(409, "tenant-conflict", "Conflict", detail);
    }

    static Response badRequest(String detail) {
        return Problem.response(400, "invalid-request", "Invalid request", detail);
    }
}
