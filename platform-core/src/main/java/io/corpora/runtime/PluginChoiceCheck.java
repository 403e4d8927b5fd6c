package io.corpora.runtime;

import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.plugin.loader.PluginKind;
import io.corpora.plugin.loader.PluginRegistry;
import io.corpora.plugin.loader.ProviderDescriptor;
import io.corpora.spi.config.InvalidConfigException;
import io.corpora.tenancy.config.DefinitionCheck;
import io.corpora.tenancy.config.TenantFileProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * What of a tenant definition's plugin choices this server could not create, each at its field: a provider no loaded
 * plugin offers, options the provider does not declare or refuses (by their declarations, then by its own
 * {@link io.corpora.spi.PluginProvider#validate}), a {@code ${config:…}} reference whose key is not set.
 * Checked when an admin creates or updates a tenant, so a definition every call of the tenant would fail on is refused
 * up front (400) instead of accepted. Nothing is opened: whether a backend answers, or a file is there, is found when the
 * tenant is served (503 {@code plugin-unavailable}). A referenced value is checked but never repeated (it may be a secret).
 */
public final class PluginChoiceCheck implements DefinitionCheck {

    private final PluginRegistry plugins;
    private final Function<String, Optional<String>> configSource;

    public PluginChoiceCheck(PluginRegistry plugins, Function<String, Optional<String>> configSource) {
        this.plugins = plugins;
        this.configSource = configSource;
    }

    @Override
    public List<TenantFileProblem> problems(String file, TenantDefinition definition) {
        List<TenantFileProblem> problems = new ArrayList<>();
        check(file, "/store", PluginKind.VECTOR_STORE, definition.store(), problems);
        check(file, "/embedder", PluginKind.EMBEDDER, definition.embedder(), problems);
        check(file, "/reranker", PluginKind.RERANKER, definition.reranker(), problems);
        check(file, "/generator", PluginKind.GENERATOR, definition.generator(), problems);
        check(file, "/access/filterHook", PluginKind.RETRIEVAL_FILTER_HOOK, definition.access().filterHook(), problems);
        return problems;
    }

    private void check(String file, String pointer, PluginKind kind, PluginChoice choice, List<TenantFileProblem> problems) {
        if (choice == null) {
            return;
        }
        Optional<ProviderDescriptor> descriptor = plugins.describe(kind, choice.provider());
        if (descriptor.isEmpty()) {
            problems.add(new TenantFileProblem(file, pointer + "/provider", "no " + kind.label() + " plugin named '" + choice.provider()
                    + "' is loaded on this server; loaded: " + plugins.names(kind)));
            return;
        }
        Map<String, String> resolved;
        try {
            resolved = SecretReferences.resolve(choice.config(), configSource);
        } catch (IllegalStateException unset) {
            problems.add(new TenantFileProblem(file, pointer + "/config", unset.getMessage() + " on this server"));
            return;
        }
        try {
            plugins.validate(kind, choice.provider(), resolved);
        } catch (InvalidConfigException refused) {
            for (String problem : refused.problems()) {
                problems.add(new TenantFileProblem(file, pointer + "/config", withoutReferencedValue(choice.config(), problem)));
            }
        }
    }

    /** A problem with an option whose value came from a reference names the reference, not the value. */
    private static String withoutReferencedValue(Map<String, String> raw, String problem) {
        for (Map.Entry<String, String> option : raw.entrySet()) {
            if (SecretReferences.isReference(option.getValue()) && problem.startsWith("option '" + option.getKey() + "'")) {
                return "option '" + option.getKey() + "': the value of " + option.getValue().trim() + " is refused by the plugin";
            }
        }
        return problem;
    }
}
