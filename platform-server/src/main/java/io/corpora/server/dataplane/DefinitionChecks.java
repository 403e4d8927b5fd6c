package io.corpora.server.dataplane;

import io.corpora.tenancy.config.DefinitionCheck;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;

/** The checks a tenant definition passes beyond its schema wherever it enters (admin API, tenants-config sync). */
@ApplicationScoped
public class DefinitionChecks {

    @Inject
    DataPlane dataPlane;

    /** That this server can create the definition's plugins ({@link io.corpora.runtime.PluginChoiceCheck}). */
    @Produces
    DefinitionCheck pluginChoices() {
        return (file, definition) -> dataPlane.runtimes().choiceCheck().problems(file, definition);
    }
}
