package io.corpora.client.model;

/**
 * What produced a candidate's numbers.
 *
 * @param fusion   the fusion label, hybrid only
 * @param embedder the tenant's active embedder fingerprint
 * @param store    the store provider
 */
public record EvaluationFingerprint(String mode, String fusion, String embedder, String store) {}
