/** Corpora for Spring AI: {@link io.corpora.springai.CorporaDocumentRetriever}, a tenant as a {@code DocumentRetriever}. */
package io.corpora.springai;
