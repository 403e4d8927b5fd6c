package {{package}};

import io.corpora.spi.MetadataFilter;
import io.corpora.spi.filter.Actor;
import io.corpora.spi.filter.RetrievalFilterHook;

/**
 * A starting point: the actor sees chunks whose {@code metadataKey} equals its {@code claim}. It fails closed: an
 * actor without the claim, or with a claim that is not a non-empty string, gets an exception (Corpora answers 403 and
 * reads nothing), never an unrestricted filter.
 */
final class {{Class}}RetrievalFilterHook implements RetrievalFilterHook {

    private final String claim;
    private final String metadataKey;

    {{Class}}RetrievalFilterHook(String claim, String metadataKey) {
        this.claim = claim;
        this.metadataKey = metadataKey;
        MetadataFilter.exists(metadataKey); // validates the key at creation, not at the first request
    }

    @Override
    public MetadataFilter filterFor(Actor actor) {
        if (actor == null) {
            throw new IllegalStateException("no actor: access denied");
        }
        Object value = actor.claims().get(claim);
        if (!(value instanceof String s) || s.isBlank()) {
            throw new IllegalStateException("token has no usable '" + claim + "' claim: access denied");
        }
        return MetadataFilter.eq(metadataKey, s);
    }
}
