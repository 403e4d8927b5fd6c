package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.corpora.controlplane.RetrievalDefaults;
import io.corpora.engine.retriever.FusionSpec;
import io.corpora.retrieval.evaluation.Candidate;
import io.corpora.server.rest.ProblemException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The candidate list of an evaluation: the default comparison and the checks of a requested one (422, never a 500). */
class EvaluationCandidatesTest {

    @Test
    void theDefaultComparisonStartsWithTheCurrentConfigurationAndHoldsNoDuplicate() {
        RetrievalDefaults convex = RetrievalDefaults.STANDARD.withFusion(FusionSpec.convex("minmax", 0.4));
        List<Candidate> candidates = EvaluationsResource.candidates(null, convex);
        assertEquals(new Candidate("hybrid", FusionSpec.convex("minmax", 0.4)), candidates.get(0), "kept on a tie");
        assertEquals(8, candidates.size(), "current (= convex min-max 0.4), vector, keyword, the standard (z-score 0.6), rrf, min-max 0.2/0.6/0.8: " + candidates);
        assertEquals(candidates.size(), candidates.stream().map(Candidate::describe).distinct().count());

        List<Candidate> standard = EvaluationsResource.candidates(null, RetrievalDefaults.STANDARD);
        assertEquals(List.of("hybrid " + FusionSpec.STANDARD.describe(), "vector", "keyword"),
                standard.subList(0, 3).stream().map(Candidate::describe).toList());
        assertEquals(8, standard.size(), "the standard once, then rrf and min-max 0.2/0.4/0.6/0.8: " + standard);
        assertTrue(standard.contains(new Candidate("hybrid", FusionSpec.rrf(60, 1, 1))), "RRF stays in the comparison: " + standard);
    }

    @Test
    void aRequestedCandidateTakesTheStandardFusionForWhatItLeavesOut() {
        EvaluationRequest.CandidateBody body = new EvaluationRequest.CandidateBody();
        body.mode = "HYBRID";
        body.fusion = new EvaluationRequest.FusionBody();
        body.fusion.method = "convex";
        body.fusion.alpha = 0.3;
        Candidate c = EvaluationsResource.candidates(List.of(body), RetrievalDefaults.STANDARD).get(0);
        assertEquals("hybrid", c.mode());
        assertEquals(FusionSpec.convex("zscore", 0.3), c.fusion(), "the standard's normalisation fills what the body leaves out");
    }

    @Test
    void badCandidatesAre422() {
        EvaluationRequest.CandidateBody fuzzy = new EvaluationRequest.CandidateBody();
        fuzzy.mode = "fuzzy";
        assertEquals(422, status(List.of(fuzzy)));
        EvaluationRequest.CandidateBody noMode = new EvaluationRequest.CandidateBody();
        assertEquals(422, status(List.of(noMode)));
        EvaluationRequest.CandidateBody vectorWithFusion = new EvaluationRequest.CandidateBody();
        vectorWithFusion.mode = "vector";
        vectorWithFusion.fusion = new EvaluationRequest.FusionBody();
        assertEquals(422, status(List.of(vectorWithFusion)));
        EvaluationRequest.CandidateBody badAlpha = new EvaluationRequest.CandidateBody();
        badAlpha.mode = "hybrid";
        badAlpha.fusion = new EvaluationRequest.FusionBody();
        badAlpha.fusion.method = "convex";
        badAlpha.fusion.alpha = 1.5;
        assertEquals(422, status(List.of(badAlpha)));
        assertEquals(422, status(List.of()));
        List<EvaluationRequest.CandidateBody> many = new ArrayList<>();
        for (int i = 0; i < 17; i++) {
            EvaluationRequest.CandidateBody v = new EvaluationRequest.CandidateBody();
            v.mode = "vector";
            many.add(v);
        }
        assertEquals(422, status(many));
    }

    private static int status(List<EvaluationRequest.CandidateBody> bodies) {
        return assertThrows(ProblemException.class, () -> EvaluationsResource.candidates(bodies, RetrievalDefaults.STANDARD)).status();
    }
}
