package io.corpora.engine.retriever;

/**
 * One stage of a retrieval: a store leg ({@code vector}, {@code keyword}), a fusion, a rerank, an expansion.
 *
 * @param name       the stage
 * @param candidates how many candidates the stage produced
 * @param millis     wall time of the stage
 */
public record LegReport(String name, int candidates, double millis) {}
