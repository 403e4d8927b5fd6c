/**
 * Grounded answers: a question retrieved through the tenant's full retrieval path (the same access decision, hook,
 * partition binding and floor as {@code retrieve}), the numbered context block handed to the tenant's generator as
 * untrusted data, and the answer's citations checked against the passages it was given. Optional query transforms
 * (multi-query expansion, HyDE) fall back to the original question when the model fails.
 */
package io.corpora.answer;
