package io.corpora.server.api.model;

import io.corpora.retrieval.RetrievalResponse;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The answer to one retrieve: cited passages, the context block built from them, and how the retrieval went. */
@Schema(name = "RetrievalResult")
@JsonbPropertyOrder({"passages", "context", "diagnostics"})
public record RetrievalResult(@Schema List<Passage> passages, @Schema(description = "The passages as one cited context block for a prompt") String context,
                              @Schema Diagnostics diagnostics) {

    public static RetrievalResult of(RetrievalResponse response) {
        return new RetrievalResult(response.passages().stream().map(Passage::of).toList(), response.context().text(),
                Diagnostics.of(response.diagnostics()));
    }
}
