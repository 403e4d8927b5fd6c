/**
 * Retrieval: one {@link io.corpora.engine.retriever.Retriever} interface and composable implementations — store legs
 * ({@link io.corpora.engine.retriever.VectorRetriever}, {@link io.corpora.engine.retriever.KeywordRetriever}), fusion
 * ({@link io.corpora.engine.retriever.HybridRetriever}), reranking, neighbour windows and MMR — plus the
 * {@link io.corpora.engine.retriever.ContextBlock} renderer.
 *
 * <p>Option semantics, the same in every retriever: the score floor applies before the top-K cut (and is pushed
 * into the store), never to fused rank scores (an error there); the character budget is spent last, in rank order,
 * refusing whole passages and recording each refusal; results are sorted by descending finite score, ties by id.
 * Every result carries {@link io.corpora.engine.retriever.RetrievalDiagnostics}, with fields the server fills for
 * its isolation checks.
 */
package io.corpora.engine.retriever;
