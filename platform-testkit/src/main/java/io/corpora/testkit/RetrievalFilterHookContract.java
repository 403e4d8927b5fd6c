package io.corpora.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.MetadataFilter;
import io.corpora.spi.filter.Actor;
import io.corpora.spi.filter.RetrievalFilterHook;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link RetrievalFilterHook} must show, as a reusable JUnit 5 suite: a hook plugin's test extends
 * this class and supplies a hook, an actor with a grant, and chunk metadata that grant does and does not reach.
 * Visibility is judged with {@link MetadataFilter#matches}, the semantics every store implements.
 *
 * <p>What it holds a hook to: the same actor always gets the same filter (from any instance of the same configuration);
 * the granted actor sees what it should and nothing else; and it fails closed — an actor stripped of its roles, groups
 * and claims sees none of the granted chunks, and an actor whose claims are missing or of odd types (numbers, nested
 * maps, empty strings, lists of the wrong type) either is refused (the hook throws or returns null: the request fails,
 * nothing is searched) or sees no more than the granted actor.
 */
public abstract class RetrievalFilterHookContract {

    /** A new hook; two calls with the same configuration must give equivalent hooks. */
    protected abstract RetrievalFilterHook newHook() throws Exception;

    /** An actor holding a grant, with the claims the hook reads. */
    protected abstract Actor grantedActor();

    /** Chunk metadata the granted actor may see (at least one). */
    protected abstract List<Map<String, Object>> visibleToGrantedActor();

    /** Chunk metadata the granted actor must not see (at least one). */
    protected abstract List<Map<String, Object>> hiddenFromGrantedActor();

    @Test
    void theSameActorAlwaysGetsTheSameFilter() throws Exception {
        RetrievalFilterHook hook = newHook();
        MetadataFilter first = hook.filterFor(grantedActor());
        assertNotNull(first, "the granted actor gets a filter");
        assertEquals(first, hook.filterFor(grantedActor()), "the same actor, the same filter");
        assertEquals(first, newHook().filterFor(grantedActor()), "another instance of the same configuration, the same filter");
        assertEquals(first, hook.filterFor(copy(grantedActor())), "an equal actor, the same filter");
    }

    @Test
    void theGrantedActorSeesItsChunksAndNoOthers() throws Exception {
        assertFalse(visibleToGrantedActor().isEmpty() || hiddenFromGrantedActor().isEmpty(), "the suite needs both kinds of chunk");
        MetadataFilter filter = newHook().filterFor(grantedActor());
        for (Map<String, Object> chunk : visibleToGrantedActor()) {
            assertTrue(filter.matches(chunk), "the granted actor must see " + chunk + " through " + filter);
        }
        for (Map<String, Object> chunk : hiddenFromGrantedActor()) {
            assertFalse(filter.matches(chunk), "the granted actor must not see " + chunk + " through " + filter);
        }
    }

    @Test
    void anActorWithoutRolesGroupsOrClaimsFailsClosed() throws Exception {
        Actor granted = grantedActor();
        Actor stripped = new Actor(granted.tenant(), "contract-nobody", Set.of(), Set.of(), Map.of());
        Optional<MetadataFilter> filter = filterOrRefusal(newHook(), stripped);
        filter.ifPresent(f -> {
            for (Map<String, Object> chunk : visibleToGrantedActor()) {
                assertFalse(f.matches(chunk), "an actor holding nothing must not see " + chunk + " through " + f);
            }
            for (Map<String, Object> chunk : hiddenFromGrantedActor()) {
                assertFalse(f.matches(chunk), "an actor holding nothing must not see " + chunk + " through " + f);
            }
        });
    }

    @Test
    void missingOrOddClaimsFailClosed() throws Exception {
        RetrievalFilterHook hook = newHook();
        Actor granted = grantedActor();
        MetadataFilter grant = hook.filterFor(granted);
        List<Object> oddValues = List.of(42, -1L, 3.5, true, "", " ", List.of(), List.of(7, 8), List.of(Map.of("x", 1)),
                Map.of(), Map.of("nested", List.of("a")), "*", "%", "a,b");
        List<Actor> odd = new ArrayList<>();
        for (String claim : granted.claims().keySet()) {
            Map<String, Object> without = new HashMap<>(granted.claims());
            without.remove(claim);
            odd.add(new Actor(granted.tenant(), granted.subject(), granted.roles(), granted.groups(), without));
            for (Object value : oddValues) {
                Map<String, Object> changed = new HashMap<>(granted.claims());
                changed.put(claim, value);
                odd.add(new Actor(granted.tenant(), granted.subject(), granted.roles(), granted.groups(), changed));
            }
        }
        for (Object value : oddValues) {
            if (value instanceof String s) {
                odd.add(new Actor(granted.tenant(), granted.subject(), Set.of(s), Set.of(s), granted.claims()));
            }
        }
        for (Actor actor : odd) {
            filterOrRefusal(hook, actor).ifPresent(f -> {
                for (Map<String, Object> chunk : concat(visibleToGrantedActor(), hiddenFromGrantedActor())) {
                    assertFalse(f.matches(chunk) && !grant.matches(chunk),
                            "an actor with claims " + actor.claims() + ", roles " + actor.roles() + " sees " + chunk
                                    + " the granted actor does not: " + f);
                }
            });
        }
    }

    /** The hook's filter for {@code actor}, or empty when it refused (threw or returned null): both fail closed. */
    private static Optional<MetadataFilter> filterOrRefusal(RetrievalFilterHook hook, Actor actor) {
        try {
            return Optional.ofNullable(hook.filterFor(actor));
        } catch (RuntimeException refused) {
            return Optional.empty();
        }
    }

    private static Actor copy(Actor actor) {
        return new Actor(actor.tenant(), actor.subject(), Set.copyOf(actor.roles()), Set.copyOf(actor.groups()), Map.copyOf(actor.claims()));
    }

    private static List<Map<String, Object>> concat(List<Map<String, Object>> a, List<Map<String, Object>> b) {
        List<Map<String, Object>> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
