package io.corpora.runtime;

import io.corpora.engine.embed.DocumentEmbeddingCache;
import io.corpora.engine.embed.QueryEmbeddingCache;
import io.corpora.plugin.loader.PluginManager;
import io.corpora.plugin.loader.PluginRegistry;
import io.corpora.runtime.guard.GuardContext;
import io.corpora.runtime.guard.GuardPolicy;
import io.corpora.runtime.guard.PluginCallObserver;
import io.corpora.runtime.guard.PluginGuards;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Tenant runtimes on the real plugins the build put in {@code target/plugins} (loaded once per test class), with no
 * tenant configuration and the default guards: a test class registers it as a static {@code @RegisterExtension}; every
 * runtime a test opened, and the threads its plugin calls ran on, are closed after the test.
 */
final class RealPluginRuntimes implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback {

    private PluginRegistry plugins;
    private ExecutorService pluginCalls;
    private final List<TenantRuntimes> opened = new CopyOnWriteArrayList<>();

    @Override
    public void beforeAll(ExtensionContext context) {
        plugins = PluginManager.load(Path.of(System.getProperty("corpora.test.plugins.dir", "target/plugins")));
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        pluginCalls = Executors.newCachedThreadPool();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        opened.forEach(TenantRuntimes::close);
        opened.clear();
        pluginCalls.shutdownNow();
    }

    PluginRegistry plugins() {
        return plugins;
    }

    TenantRuntimes open(Path data) {
        return open(data, TenantRuntimes.WorkingSetPolicy.DEFAULT);
    }

    TenantRuntimes open(Path data, TenantRuntimes.WorkingSetPolicy workingSet) {
        return open(data, workingSet, System::nanoTime);
    }

    TenantRuntimes open(Path data, TenantRuntimes.WorkingSetPolicy workingSet, LongSupplier nanoTime) {
        return open(data, workingSet, new QueryEmbeddingCache(0), nanoTime);
    }

    TenantRuntimes open(Path data, QueryEmbeddingCache queryCache) {
        return open(data, TenantRuntimes.WorkingSetPolicy.DEFAULT, queryCache, System::nanoTime);
    }

    TenantRuntimes open(Path data, DocumentEmbeddingCache documentCache) {
        return open(data, TenantRuntimes.WorkingSetPolicy.DEFAULT, new QueryEmbeddingCache(0), documentCache, System::nanoTime);
    }

    /** @param configSource what {@code ${config:…}} references in tenant definitions resolve to */
    TenantRuntimes open(Path data, Function<String, Optional<String>> configSource, LongSupplier nanoTime) {
        return open(data, configSource, TenantRuntimes.WorkingSetPolicy.DEFAULT, new QueryEmbeddingCache(0), DocumentEmbeddingCache.disabled(), nanoTime);
    }

    private TenantRuntimes open(Path data, TenantRuntimes.WorkingSetPolicy workingSet, QueryEmbeddingCache queryCache, LongSupplier nanoTime) {
        return open(data, workingSet, queryCache, DocumentEmbeddingCache.disabled(), nanoTime);
    }

    private TenantRuntimes open(Path data, TenantRuntimes.WorkingSetPolicy workingSet, QueryEmbeddingCache queryCache,
                                DocumentEmbeddingCache documentCache, LongSupplier nanoTime) {
        return open(data, key -> Optional.empty(), workingSet, queryCache, documentCache, nanoTime);
    }

    private TenantRuntimes open(Path data, Function<String, Optional<String>> configSource, TenantRuntimes.WorkingSetPolicy workingSet,
                                QueryEmbeddingCache queryCache, DocumentEmbeddingCache documentCache, LongSupplier nanoTime) {
        TenantRuntimes runtimes = new TenantRuntimes(plugins, data, configSource,
                new PluginGuards(GuardPolicy::defaults, GuardContext.system(pluginCalls, PluginCallObserver.NONE)), workingSet,
                queryCache, documentCache, nanoTime);
        opened.add(runtimes);
        return runtimes;
    }
}
