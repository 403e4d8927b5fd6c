package io.corpora.server.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.corpora.controlplane.IngestJob;
import io.corpora.controlplane.Tenant;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.controlplane.TenantRepository;
import io.corpora.runtime.PluginCreationException;
import io.corpora.server.api.model.Job;
import io.corpora.server.tenants.TenantLifecycle;
import io.corpora.server.tenants.TenantsConfigService;
import io.corpora.tenancy.config.DefinitionCheck;
import io.corpora.tenancy.config.InvalidTenantDefinitionException;
import io.corpora.tenancy.config.TenantDefinitionCodec;
import io.corpora.tenancy.config.TenantFileProblem;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.List;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * What the requests that start a corpus migration share: the tenant (404), the body's one section ({@code embedder},
 * {@code store}) validated in place of the tenant's own in its current document (400, audited as a refusal), the start,
 * and the 202 whose Location names the job.
 */
@RequestScoped
public class MigrationRequests {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Starts the migration to {@code target} (the tenant's definition with the body's section in place). */
    @FunctionalInterface
    interface Start {
        IngestJob start(String actor, Tenant tenant, TenantDefinition target);
    }

    @Inject
    TenantRepository tenants;

    @Inject
    TenantsConfigService tenantsConfig;

    @Inject
    TenantLifecycle lifecycle;

    @Inject
    DefinitionCheck definitionCheck;

    @Inject
    JsonWebToken caller;

    /** Answers a {@code {"<section>": {"provider": …, "config": {…}}}} request that starts a migration audited as {@code action}. */
    Response start(String id, String body, String section, String action, UriInfo uri, Start start) {
        Tenant tenant = tenants.find(id).orElse(null);
        if (tenant == null) {
            return TenantViews.notFound(id);
        }
        String actor = TenantViews.actor(caller);
        TenantDefinition target;
        try {
            target = tenantsConfig.validator().parse("request", withSection(tenant, body, section));
            List<TenantFileProblem> targetProblems = definitionCheck.problemsUnder("request", target, section);
            if (!targetProblems.isEmpty()) {
                throw new InvalidTenantDefinitionException(targetProblems);
            }
        } catch (InvalidTenantDefinitionException e) {
            lifecycle.recordRefusal(actor, id, action, e.getMessage());
            return TenantViews.invalid(e.problems());
        } catch (IllegalArgumentException e) {
            lifecycle.recordRefusal(actor, id, action, e.getMessage());
            return TenantViews.badRequest(e.getMessage());
        }
        IngestJob job;
        try {
            job = start.start(actor, tenant, target);
        } catch (IllegalArgumentException e) {
            return TenantViews.badRequest(e.getMessage());
        } catch (PluginCreationException e) { // the target's backend would not open (e.g. a model file that is not there)
            return TenantViews.badRequest("the target " + e.kind().label() + " '" + e.provider() + "' could not be started: "
                    + e.detailForOperator());
        }
        return Response.accepted(Job.of(job))
                .location(uri.getBaseUriBuilder().path("admin/v1/tenants/{id}/jobs/{job}").build(id, job.id())).build();
    }

    /** The tenant's current document with the body's {@code section} in place of its own, for the usual validation. */
    private static JsonNode withSection(Tenant tenant, String body, String section) {
        JsonNode request;
        try {
            request = body == null || body.isBlank() ? null : JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the body is not valid JSON: " + e.getOriginalMessage());
        }
        if (request == null || !request.path(section).isObject()) {
            throw new IllegalArgumentException("the body must be {\"" + section + "\": {\"provider\": …, \"config\": {…}}}");
        }
        ObjectNode document = TenantDefinitionCodec.toJson(tenant.definition());
        document.set(section, request.get(section));
        // Not the request's to validate: a definition may only say ACTIVE or INACTIVE, and the migration refuses a tenant
        // that is not ACTIVE itself (409 tenant-not-active); an OFFLOADED one was a 400 naming a "/state" never sent.
        document.remove("state");
        return document;
    }
}
