package io.corpora.retrieval.evaluation;

import io.corpora.engine.retriever.FusionSpec;
import java.util.Locale;
import java.util.Objects;

/**
 * One configuration an evaluation measures: a retrieval mode and, for hybrid, its fusion.
 *
 * @param fusion the hybrid fusion; ignored (null) for vector and keyword
 */
public record Candidate(String mode, FusionSpec fusion) {

    public Candidate {
        Objects.requireNonNull(mode, "mode");
        mode = mode.toLowerCase(Locale.ROOT);
        if (!mode.equals("vector") && !mode.equals("keyword") && !mode.equals("hybrid")) {
            throw new IllegalArgumentException("candidate mode must be vector, keyword or hybrid, got '" + mode + "'");
        }
        fusion = mode.equals("hybrid") ? Objects.requireNonNullElse(fusion, FusionSpec.STANDARD) : null;
    }

    /** A stable label, e.g. {@code hybrid rrf(k=60,v=1,kw=1)} or {@code vector}. */
    public String describe() {
        return fusion == null ? mode : mode + " " + fusion.describe();
    }
}
