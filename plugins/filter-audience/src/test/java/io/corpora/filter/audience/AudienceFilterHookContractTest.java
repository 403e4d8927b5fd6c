package io.corpora.filter.audience;

import io.corpora.spi.filter.Actor;
import io.corpora.spi.filter.RetrievalFilterHook;
import io.corpora.spi.filter.RetrievalFilterHookProvider;
import io.corpora.testkit.Providers;
import io.corpora.testkit.RetrievalFilterHookContract;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The audience hook with its default templates. Public chunks are visible to anyone, by design, so the suite's chunks
 * carry only restricted audiences; the actor's claim is one the hook does not read (varying it must change nothing).
 */
class AudienceFilterHookContractTest extends RetrievalFilterHookContract {

    @Override
    protected RetrievalFilterHook newHook() {
        return Providers.create(RetrievalFilterHookProvider.class, "audience", Map.of(), Path.of("target"));
    }

    @Override
    protected Actor grantedActor() {
        return new Actor("acme", "alice", Set.of("reader"), Set.of("eng"), Map.of("department", "research"));
    }

    @Override
    protected List<Map<String, Object>> visibleToGrantedActor() {
        return List.of(Map.of("audience", "group:eng"), Map.of("audience", List.of("user:alice", "user:bob")),
                Map.of("audience", "role:reader"));
    }

    @Override
    protected List<Map<String, Object>> hiddenFromGrantedActor() {
        return List.of(Map.of("audience", "group:finance"), Map.of("audience", "user:bob"), Map.of("audience", "tenant:acme"),
                Map.of("other", "group:eng"), Map.of(), Map.of("audience", List.of()), Map.of("audience", "role:admin"));
    }
}
