package io.corpora.store.qdrant;

/** A Qdrant call that failed (unreachable, refused, timed out, or a collection this store cannot use): the store's failure. */
final class QdrantStoreException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    QdrantStoreException(String message, Throwable cause) {
        super(message, cause);
    }

    QdrantStoreException(String message) {
        super(message);
    }
}
