package io.corpora.server.api.model;

import io.corpora.retrieval.RetrievalResponse;
import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Where a passage comes from; {@code headingPath} and {@code page} are left out when the document has none. */
@Schema(name = "Citation")
@JsonbPropertyOrder({"index", "documentId", "chunkIndex", "source", "headingPath", "page"})
public record Citation(@Schema(description = "The passage's [n] marker in the context block") int index, @Schema String documentId, @Schema int chunkIndex,
                       @Schema @JsonbNillable String source, @Schema List<String> headingPath, @Schema Object page) {

    static Citation of(RetrievalResponse.Citation c) {
        return new Citation(c.index(), c.documentId(), c.chunkIndex(), c.source(), c.headingPath().isEmpty() ? null : c.headingPath(), c.page());
    }
}
