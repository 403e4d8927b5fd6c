package io.corpora.server.dataplane;

import io.corpora.access.TenantView;
import io.corpora.ingest.GracefulStop;
import io.corpora.retrieval.evaluation.Candidate;
import io.corpora.retrieval.evaluation.EvaluationResult;
import io.corpora.retrieval.evaluation.JudgedSet;
import io.corpora.server.api.model.Evaluation;
import io.corpora.server.persistence.JpaEvaluations;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs evaluations in the background on the container's managed executor, through the view's real retrieval path,
 * recording progress (about every percent) and the result. It only records: applying a recommendation is a separate,
 * explicit call. A clean stop fails a running evaluation between two queries, saying so, while the control plane can
 * still record it.
 */
@ApplicationScoped
public class EvaluationRunner implements StoppableWork {

    private static final Logger LOG = Logger.getLogger(EvaluationRunner.class.getName());

    @Resource
    ManagedExecutorService executor;

    @Inject
    JpaEvaluations evaluations;

    static final String STOPPED = "this server stopped while the evaluation ran; start the evaluation again";

    /** Evaluations running here enter it; the server's stop ends them before their next query. */
    private final GracefulStop stop = new GracefulStop();

    /** Ends a run at the server's stop, from the progress callback. */
    private static final class Stopped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stopped() {
            super(STOPPED, null, false, false);
        }
    }

    /** Starts the stored, QUEUED evaluation {@code id}. */
    public void start(String id, TenantView view, JudgedSet set, List<Candidate> candidates, int recallAt) {
        String embedder = view.tenant().activeEmbedder();
        String store = view.storeProvider();
        String tenant = view.tenant().id();
        stop.execute(executor, () -> { // counted from now: a stop waits for it to start, and fail
            try {
                if (stop.requested()) {
                    throw new Stopped();
                }
                if (!evaluations.markRunning(id)) {
                    return; // closed before it started (its server's lease was taken for expired)
                }
                int[] recorded = {0};
                EvaluationResult result = view.evaluate(set, candidates, recallAt, (done, total) -> {
                    if (stop.requested()) {
                        throw new Stopped();
                    }
                    // a progress row per percent (or per query for small sets), not per retrieval
                    if (done == total || done - recorded[0] >= Math.max(1, total / 100)) {
                        recorded[0] = done;
                        evaluations.progress(id, done);
                    }
                });
                List<Evaluation.CandidateResult> results = result.candidates().stream()
                        .map(r -> Evaluation.CandidateResult.of(r, embedder, store)).toList();
                if (!evaluations.succeed(id, compared(tenant, id, results), result.recommended())) {
                    LOG.warning("evaluation " + id + " finished after another server closed it (this server's lease had expired); its result is dropped");
                }
            } catch (Stopped e) {
                LOG.info("evaluation " + id + " of tenant " + tenant + " failed: " + STOPPED);
                evaluations.fail(id, STOPPED);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "evaluation " + id + " failed", e);
                evaluations.fail(id, e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        });
    }

    /** Once requested, running evaluations fail before their next query (their results would be of a half-run set). */
    @Override
    public GracefulStop gracefulStop() {
        return stop;
    }

    /** The results compared with the tenant's previous comparable run, with the evaluation's maxDrop. */
    private List<Evaluation.CandidateResult> compared(String tenant, String id, List<Evaluation.CandidateResult> results) {
        JpaEvaluations.Row row = evaluations.find(tenant, id).orElseThrow();
        return evaluations.previousComparable(row)
                .map(previous -> Evaluation.compared(results, previous.id(), Evaluation.results(previous), row.maxDrop()))
                .orElseGet(() -> Evaluation.compared(results, null, null, row.maxDrop()));
    }
}
