/**
 * Corpora for LangChain4j: {@link io.corpora.langchain4j.CorporaContentRetriever} (a tenant as a
 * {@code ContentRetriever} for {@code AiServices} and {@code DefaultRetrievalAugmentor}) and
 * {@link io.corpora.langchain4j.CorporaDocumentIngestor} (LangChain4j {@code Document}s into the tenant).
 */
package io.corpora.langchain4j;
