package io.corpora.server.api.model;

import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** One page of documents; {@code next} (the {@code after} of the next page) is null exactly at the end. */
@Schema(name = "DocumentPage")
@JsonbPropertyOrder({"documents", "next"})
public record DocumentPage(@Schema List<DocumentView> documents, @JsonbNillable @Schema(nullable = true) String next) {}
