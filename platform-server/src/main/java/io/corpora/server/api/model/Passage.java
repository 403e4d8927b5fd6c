package io.corpora.server.api.model;

import io.corpora.retrieval.RetrievalResponse;
import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** One retrieved passage (a chunk) with its score, caller-visible metadata and citation. */
@Schema(name = "Passage")
@JsonbPropertyOrder({"id", "text", "score", "source", "metadata", "citation"})
public record Passage(@Schema String id, @Schema String text, @Schema double score, @Schema @JsonbNillable String source, @Schema Map<String, Object> metadata, @Schema Citation citation) {

    static Passage of(RetrievalResponse.CitedPassage p) {
        return new Passage(p.id(), p.text(), p.score(), p.source(), p.metadata(), Citation.of(p.citation()));
    }
}
