package io.corpora.client.model;

import java.util.List;

/** One page of documents; {@code next} (the {@code after} of the next page) is null exactly at the end. */
public record DocumentPage(List<Document> documents, String next) {}
