package io.corpora.server.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.corpora.runtime.guard.CallKind;
import io.corpora.runtime.guard.GuardKey;
import io.corpora.runtime.guard.PluginUnavailableException;
import io.corpora.spi.FailureKind;
import io.corpora.spi.PluginException;
import io.corpora.spi.loader.DocumentLoadException;
import org.junit.jupiter.api.Test;

/** The status a plugin failure is answered with, by its kind in the SPI's failure contract. */
class PluginFailureProblemTest {

    private static final GuardKey STORE = new GuardKey("acme", CallKind.STORE, "lucene");

    @Test
    void aCallerErrorFromAPluginIsA4xxNeverA5xx() {
        PluginFailureProblem problem = PluginFailureProblem.of(PluginException.callerError("metadata over the backend's 64 KiB"));
        assertEquals(422, problem.status());
        assertEquals("plugin-rejected-input", problem.type());
        assertEquals(0, problem.retryAfterSeconds());
    }

    @Test
    void anUnreadableDocumentIs422AndAnOversizedOne413() {
        assertEquals(422, PluginFailureProblem.of(new DocumentLoadException(DocumentLoadException.Reason.ENCRYPTED, "encrypted PDF")).status());
        assertEquals(422, PluginFailureProblem.of(new DocumentLoadException(DocumentLoadException.Reason.TIMEOUT, "too slow")).status());
        assertEquals(413, PluginFailureProblem.of(new DocumentLoadException(DocumentLoadException.Reason.TOO_LARGE, "2000 pages")).status());
    }

    @Test
    void anUnguardedTransientFailureIs503WithRetryAfterAndAPermanentOne502Without() {
        PluginFailureProblem transientOne = PluginFailureProblem.of(new PluginException(FailureKind.TRANSIENT, "unreachable"));
        assertEquals(503, transientOne.status());
        assertEquals(PluginFailureProblem.UNGUARDED_RETRY_AFTER_SECONDS, transientOne.retryAfterSeconds());
        PluginFailureProblem permanent = PluginFailureProblem.of(new PluginException(FailureKind.PERMANENT, "model file missing"));
        assertEquals(502, permanent.status());
        assertEquals(0, permanent.retryAfterSeconds());
    }

    @Test
    void aGuardedCallWithoutAnswerIs503WithTheGuardsRetryAfterOr502WhenPermanent() {
        PluginFailureProblem open = PluginFailureProblem.of(
                new PluginUnavailableException(STORE, PluginUnavailableException.Reason.CIRCUIT_OPEN, 7, null, null));
        assertEquals(503, open.status());
        assertEquals(7, open.retryAfterSeconds());
        PluginFailureProblem permanent = PluginFailureProblem.of(
                new PluginUnavailableException(STORE, PluginUnavailableException.Reason.PERMANENT, 2, "bad credentials", null));
        assertEquals(502, permanent.status());
        assertEquals("plugin-failed", permanent.type());
    }
}
