package io.corpora.server.archfixture;

import io.corpora.controlplane.DocumentRegistry;
import io.corpora.server.dataplane.DataPlane;
import io.corpora.spi.Namespace;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

/**
 * A data-plane route written the way the architecture rule forbids, in a package no rule names (as a future MCP or
 * export endpoint would be): {@code DataPlaneAccessArchitectureTest} must report it.
 */
@Path("/api/v1/tenants/{tenant}/export")
public class RegistryReadingResource {

    DataPlane dataPlane;

    @GET
    public int count(String tenant) {
        DocumentRegistry registry = dataPlane.registry();
        return registry.list(Namespace.of(tenant), null, 500).size();
    }
}
