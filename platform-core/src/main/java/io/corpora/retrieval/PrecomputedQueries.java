package io.corpora.retrieval;

import io.corpora.engine.embed.QueryWindows;
import io.corpora.engine.embed.ForwardingEmbedder;
import io.corpora.spi.embed.Embedder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An embedder whose query vectors for a batch were computed in one {@link Embedder#embedQueries} call, so a batch of
 * retrievals embeds its queries together; anything else goes to the wrapped embedder. Same fingerprint, same vectors.
 * Only queries known to fit the embedder's window are batched: a longer one is embedded in windows by the retriever
 * ({@link QueryWindows}), so one long query never fails the batch.
 */
final class PrecomputedQueries extends ForwardingEmbedder {

    private final Map<String, float[]> vectors = new HashMap<>();

    PrecomputedQueries(Embedder delegate, List<String> queries) {
        super(delegate);
        List<String> distinct = queries.stream().distinct().filter(q -> QueryWindows.fits(delegate, q)).toList();
        List<float[]> embedded = delegate.embedQueries(distinct);
        for (int i = 0; i < distinct.size(); i++) {
            vectors.put(distinct.get(i), embedded.get(i));
        }
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
        return delegate.embedDocuments(texts);
    }

    @Override
    public float[] embedQuery(String query) {
        float[] vector = vectors.get(query);
        return vector != null ? vector.clone() : delegate.embedQuery(query);
    }
}
