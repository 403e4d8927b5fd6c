/**
 * Retrieval-quality evaluation on a tenant's own judged queries: the metrics ({@code trec_eval}'s definitions, shared
 * with {@code bin/corpora eval}), judged sets (BEIR and TREC qrels), and an evaluator that runs each candidate
 * configuration through the tenant's real retrieval path as a chosen actor and recommends the best, without applying it.
 */
package io.corpora.retrieval.evaluation;
