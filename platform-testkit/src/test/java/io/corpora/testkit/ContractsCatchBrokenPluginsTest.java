package io.corpora.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.corpora.spi.MetadataFilter;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.EmbedderFingerprint;
import io.corpora.spi.filter.Actor;
import io.corpora.spi.filter.RetrievalFilterHook;
import io.corpora.spi.rerank.Reranker;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The contract suites catch what they promise to: each runs here, through the JUnit Platform launcher, against an
 * implementation broken in exactly one way, and exactly the named test for that rule fails. The broken suites run only
 * when launched from here (they would fail, by design, if a test runner picked them up on its own).
 */
class ContractsCatchBrokenPluginsTest {

    private static final String LAUNCHED_HERE = "corpora.testkit.brokenSuites";

    /** An embedder that returns a different vector for a text when it is batched with others. */
    static final class BatchSensitiveEmbedder implements Embedder {
        private final TestEmbedder delegate = TestEmbedder.ofDimension(16);

        @Override
        public EmbedderFingerprint fingerprint() {
            return delegate.fingerprint();
        }

        @Override
        public List<float[]> embedDocuments(List<String> texts) {
            List<float[]> vectors = new ArrayList<>();
            for (String text : texts) {
                float[] v = delegate.vector(text);
                if (texts.size() > 1) { // batch-dependent "padding" effect, renormalised so only batching gives it away
                    v[1] += 1e-3f;
                    v = io.corpora.spi.VectorMath.l2Normalize(v);
                }
                vectors.add(v);
            }
            return vectors;
        }

        @Override
        public float[] embedQuery(String query) {
            return delegate.vector(query);
        }
    }

    @EnabledIfSystemProperty(named = LAUNCHED_HERE, matches = "true")
    static class BatchSensitiveEmbedderSuite extends EmbedderContract {
        @Override
        protected Embedder newEmbedder() {
            return new BatchSensitiveEmbedder();
        }
    }

    @EnabledIfSystemProperty(named = LAUNCHED_HERE, matches = "true")
    static class NonFiniteRerankerSuite extends RerankerContract {
        @Override
        protected Reranker newReranker() {
            return (query, texts) -> texts.stream().mapToDouble(t -> t.contains("recipe") ? Double.NaN : t.length()).toArray();
        }
    }

    /** A hook that grants everything when the actor holds nothing: it fails open. */
    @EnabledIfSystemProperty(named = LAUNCHED_HERE, matches = "true")
    static class FailOpenHookSuite extends RetrievalFilterHookContract {
        @Override
        protected RetrievalFilterHook newHook() {
            return actor -> actor.groups().isEmpty() ? MetadataFilter.all() : MetadataFilter.anyOf("audience", actor.groups());
        }

        @Override
        protected Actor grantedActor() {
            return new Actor("acme", "alice", Set.of("reader"), Set.of("eng"), Map.of());
        }

        @Override
        protected List<Map<String, Object>> visibleToGrantedActor() {
            return List.of(Map.of("audience", "eng"));
        }

        @Override
        protected List<Map<String, Object>> hiddenFromGrantedActor() {
            return List.of(Map.of("audience", "finance"));
        }
    }

    @Test
    void anEmbedderGivingADifferentVectorWhenBatchedFailsTheBatchRule() {
        assertEquals(Set.of("aBatchEqualsItsTextsEmbeddedOneByOne()"), failedTests(BatchSensitiveEmbedderSuite.class));
    }

    @Test
    void aRerankerGivingNaNFailsTheFiniteScoresRule() {
        Set<String> failed = failedTests(NonFiniteRerankerSuite.class);
        assertEquals(true, failed.contains("oneFiniteScorePerTextAlignedWithTheTexts()"), failed.toString());
    }

    @Test
    void aHookGrantingEverythingToAnActorWithoutGroupsFailsTheFailClosedRule() {
        assertEquals(Set.of("anActorWithoutRolesGroupsOrClaimsFailsClosed()"), failedTests(FailOpenHookSuite.class));
    }

    /** Runs {@code suite} and returns the display names of its failed tests; prints each failure's first line. */
    static Set<String> failedTests(Class<?> suite) {
        Set<String> failed = new TreeSet<>();
        TestExecutionListener listener = new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier test, TestExecutionResult result) {
                if (test.isTest() && result.getStatus() == TestExecutionResult.Status.FAILED) {
                    failed.add(test.getDisplayName());
                    System.out.println("[contract] " + suite.getSimpleName() + " > " + test.getDisplayName() + " FAILED: "
                            + result.getThrowable().map(Throwable::getMessage).map(m -> m.lines().findFirst().orElse("")).orElse(""));
                }
            }
        };
        System.setProperty(LAUNCHED_HERE, "true");
        try {
            LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(suite)).build(), listener);
        } finally {
            System.clearProperty(LAUNCHED_HERE);
        }
        return failed;
    }
}
